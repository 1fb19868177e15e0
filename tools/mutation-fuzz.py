#!/usr/bin/env python3
"""Mutation fuzzing of the tilec command line compiler.

Takes the example kernels in the configurations examples/CMakeLists.txt
compiles them in (the PTX manifest: source, kernel, signature, warps, stages,
constexprs), mutates one thing at a time -- a number, a name, a dtype, a
mask, an operator, the indentation, a line, a token, or the command line --
and runs tilec on each mutant under a time and memory limit. Every run must
end in one of three ways:

  * exit 0 with PTX that ptxas assembles for the mutant's --arch,
  * exit 1 with a diagnostic: `FILE:LINE:COL: error:` followed by the source
    line and a caret, or a `tilec: error:` line for the command line, or
  * exit 0 with PTX that ptxas rejects only inside the kernel's inline asm
    (the user's own PTX text, passed through verbatim as Triton does);

anything else is a finding: a crash (a signal, an LLVM/MLIR abort, an
uncaught exception), a hang (past --timeout seconds), a diagnostic that is
not one (no location, an internal MLIR message), or PTX that ptxas rejects.
A finding is minimized (lines, then tokens, are removed while it persists)
and written to --keep as a .tile file whose first line holds the command
line (`# tilec-args: ...`); `--replay DIR` runs such files again, which is
how test/Fuzz/Mutants keeps them as regression tests.

Examples:
  tools/mutation-fuzz.py --tilec build/bin/tilec \\
      --manifest build/examples/ptx-manifest.tsv --count 300 --seed 1
  tools/mutation-fuzz.py --tilec build/bin/tilec --replay test/Fuzz/Mutants
"""

import argparse
import concurrent.futures
import hashlib
import io
import os
import random
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time
import tokenize

ARG_LINE = "# tilec-args:"
LOCATED_ERROR = re.compile(r"^(.+):(\d+):(\d+): error: ", re.M)
TOOL_ERROR = re.compile(r"^tilec: error: ", re.M)
# What only a crash or an internal message prints.
CRASH_MARKS = ("LLVM ERROR", "Assertion", "PLEASE submit a bug report",
               "Stack dump", "terminate called", "UNREACHABLE",
               "Segmentation fault", "AddressSanitizer", "std::bad_alloc",
               "std::length_error")
INTERNAL_MARKS = ("failed to legalize", "'tile.", "'llvm.", "'arith.",
                  "'scf.", "'func.", "'nvvm.", "!tile.", "see current operation")

DTYPES = ["tl.float16", "tl.bfloat16", "tl.float32", "tl.float64", "tl.int1",
          "tl.int8", "tl.int16", "tl.int32", "tl.int64", "tl.uint8",
          "tl.uint32", "tl.float8e4nv", "tl.float8e5"]
NUMBERS = ["0", "1", "-1", "2", "3", "7", "15", "16", "17", "31", "33", "64",
           "127", "256", "4096", "8192", "65536", "2147483647", "2147483648",
           "9223372036854775808", "99999999999999999999", "0.5", "1e30",
           "-0.0"]
OPERATORS = ["+", "-", "*", "/", "//", "%", "&", "|", "^", "<", ">", "<=",
             ">=", "==", "!=", "<<", ">>", "**", "@"]
ARCHES = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100",
          "sm_100a", "sm_120", "sm_52", "bogus"]
PTX_VERSIONS = ["+ptx63", "+ptx70", "+ptx78", "+ptx80", "+ptx83", "+ptx86",
                "+ptx90", "+ptx99", "garbage", ""]
SIGNATURE_TYPES = ["*fp16", "*bf16", "*fp32", "*fp64", "*i8", "*i32",
                   "*i64", "*fp8e4nv", "i32", "i64", "fp32", "u32", "i1",
                   "*fp32:16", "i32:16", "i32:1", "*i1", "tensordesc<fp16[64, 64]>"]


class Case:
    """One tilec invocation: a source text and the arguments after it."""

    def __init__(self, text, args, origin=""):
        self.text = text
        self.args = list(args)
        self.origin = origin

    def arch(self):
        if "--arch" in self.args:
            i = self.args.index("--arch")
            if i + 1 < len(self.args):
                return self.args[i + 1]
        return "sm_90a"

    def serialize(self):
        return ARG_LINE + " " + shlex.join(self.args) + "\n" + self.text

    @staticmethod
    def parse(path):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        first, _, rest = text.partition("\n")
        if not first.startswith(ARG_LINE):
            return Case(text, [], path)
        return Case(rest, shlex.split(first[len(ARG_LINE):]), path)


def read_manifest(path, source_root):
    """The configurations of the manifest as Cases of the unmutated kernels."""
    cases = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 7:
                continue
            name, source, kernel, sig, warps, stages, constexprs = fields[:7]
            with open(os.path.join(source_root, source)) as src:
                text = src.read()
            args = ["--kernel", kernel, "--signature", sig, "--num-warps",
                    warps, "--num-stages", stages, "-Wno-tf32",
                    "-Wno-block-ptr"]
            for define in constexprs.split():
                args += ["-D", define]
            cases.append(Case(text, args, name))
    return cases


# --------------------------------------------------------------------------
# Mutations: each returns a new Case or None when it does not apply.
# --------------------------------------------------------------------------

def tokens_of(text):
    try:
        return list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []


def offsets(text):
    """The offset of the start of every line (1-based index)."""
    starts = [0, 0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def replace_token(case, tok, new):
    starts = offsets(case.text)
    begin = starts[tok.start[0]] + tok.start[1]
    end = starts[tok.end[0]] + tok.end[1]
    return Case(case.text[:begin] + new + case.text[end:], case.args)


def kernel_tokens(case):
    """Tokens from the first decorator on: the kernels, not the licence."""
    toks = tokens_of(case.text)
    for i, t in enumerate(toks):
        if t.type == tokenize.OP and t.string == "@":
            return toks[i:]
    return toks


def mutate_number(case, rng):
    toks = [t for t in kernel_tokens(case) if t.type == tokenize.NUMBER]
    if not toks:
        return None
    return replace_token(case, rng.choice(toks), rng.choice(NUMBERS))


def mutate_name(case, rng):
    toks = [t for t in kernel_tokens(case) if t.type == tokenize.NAME]
    names = sorted({t.string for t in toks})
    if len(names) < 2:
        return None
    return replace_token(case, rng.choice(toks), rng.choice(names))


def mutate_dtype(case, rng):
    spots = [m for m in re.finditer(r"tl\.(float|bfloat|int|uint)\w*",
                                    case.text)]
    if not spots:
        return None
    m = rng.choice(spots)
    return Case(case.text[:m.start()] + rng.choice(DTYPES) +
                case.text[m.end():], case.args)


def mutate_keyword(case, rng):
    """Deletes one keyword argument (a mask, other=, boundary_check=, ...)."""
    spots = list(re.finditer(r",\s*(mask|other|boundary_check|padding_option|"
                             r"eviction_policy|cache_modifier|axis|"
                             r"input_precision|out_dtype|acc)\s*=", case.text))
    if not spots:
        return None
    m = rng.choice(spots)
    depth, i = 0, m.end()
    while i < len(case.text):
        c = case.text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        i += 1
    return Case(case.text[:m.start()] + case.text[i:], case.args)


def mutate_operator(case, rng):
    toks = [t for t in kernel_tokens(case)
            if t.type == tokenize.OP and t.string in OPERATORS]
    if not toks:
        return None
    return replace_token(case, rng.choice(toks), rng.choice(OPERATORS))


def mutate_indentation(case, rng):
    lines = case.text.splitlines(keepends=True)
    body = [i for i, l in enumerate(lines) if l.startswith(" ")]
    if not body:
        return None
    i = rng.choice(body)
    choice = rng.randrange(4)
    if choice == 0:
        lines[i] = "    " + lines[i]
    elif choice == 1:
        lines[i] = lines[i][4:] if lines[i].startswith("    ") else lines[i][1:]
    elif choice == 2:
        lines[i] = " " + lines[i]
    else:
        lines[i] = "\t" + lines[i].lstrip(" ")
    return Case("".join(lines), case.args)


def mutate_line(case, rng):
    lines = case.text.splitlines(keepends=True)
    if len(lines) < 2:
        return None
    i = rng.randrange(len(lines))
    choice = rng.randrange(3)
    if choice == 0:
        del lines[i]
    elif choice == 1:
        lines.insert(i, lines[i])
    elif i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return Case("".join(lines), case.args)


def mutate_token(case, rng):
    toks = [t for t in kernel_tokens(case)
            if t.type in (tokenize.NAME, tokenize.OP, tokenize.NUMBER)]
    if not toks:
        return None
    tok = rng.choice(toks)
    new = "" if rng.randrange(2) else tok.string + " " + tok.string
    return replace_token(case, tok, new)


def mutate_bytes(case, rng):
    """A stray character: a BOM, a NUL, non-ASCII text, an odd quote."""
    junk = rng.choice(["\ufeff", "\x00", "\u00e9", "'", '"', "\\", "#", ":",
                       "\r", "\x1b[2J", "é€", "$"])
    i = rng.randrange(len(case.text) + 1)
    return Case(case.text[:i] + junk + case.text[i:], case.args)


def set_option(args, name, value):
    args = list(args)
    if name in args:
        i = args.index(name)
        if value is None:
            del args[i:i + 2]
        else:
            args[i + 1] = value
    elif value is not None:
        args += [name, value]
    return args


def mutate_command_line(case, rng):
    args = list(case.args)
    choice = rng.randrange(8)
    if choice == 0:
        args = set_option(args, "--num-warps", rng.choice(
            ["0", "1", "2", "3", "8", "16", "32", "64", "4294967295"]))
    elif choice == 1:
        args = set_option(args, "--num-stages", rng.choice(
            ["0", "1", "2", "4", "5", "8", "100", "4294967295"]))
    elif choice == 2:
        args = set_option(args, "--arch", rng.choice(ARCHES))
    elif choice == 3:
        version = rng.choice(PTX_VERSIONS)
        args = set_option(args, "--ptx-version", version)
    elif choice == 4:
        defines = [i for i, a in enumerate(args) if a == "-D"]
        if not defines:
            return None
        i = rng.choice(defines)
        name = args[i + 1].split("=")[0]
        args[i + 1] = name + "=" + rng.choice(NUMBERS + ["True", "tl.float16",
                                                       "x", ""])
    elif choice == 5:
        defines = [i for i, a in enumerate(args) if a == "-D"]
        if not defines:
            return None
        i = rng.choice(defines)
        del args[i:i + 2]
    elif choice == 6:
        if "--signature" not in args:
            return None
        i = args.index("--signature") + 1
        entries = [e.strip() for e in args[i].split(",")]
        if not entries:
            return None
        k = rng.randrange(len(entries))
        what = rng.randrange(3)
        if what == 0:
            entries[k] = rng.choice(SIGNATURE_TYPES)
        elif what == 1:
            del entries[k]
        else:
            entries.insert(k, rng.choice(SIGNATURE_TYPES))
        args[i] = ", ".join(entries)
    else:
        args += rng.choice([["-O", "5"], ["-O", "0"], ["--emit", "llvm"],
                            ["--emit", "tile-gpu"], ["--pointer-tma=false"],
                            ["--program-group", "0"], ["--fp-fusion=false"],
                            ["-D", "NOT_A_PARAMETER=1"]])
    return Case(case.text, args)


MUTATIONS = [mutate_number, mutate_number, mutate_name, mutate_dtype,
             mutate_keyword, mutate_operator, mutate_indentation, mutate_line,
             mutate_token, mutate_bytes, mutate_command_line,
             mutate_command_line]


def mutate(base, rng):
    for _ in range(20):
        mutant = rng.choice(MUTATIONS)(base, rng)
        if mutant is not None and (mutant.text != base.text or
                                   mutant.args != base.args):
            mutant.origin = base.origin
            return mutant
    return None


# --------------------------------------------------------------------------
# Running and classifying
# --------------------------------------------------------------------------

class Outcome:
    def __init__(self, kind, detail="", seconds=0.0):
        self.kind = kind  # accepted, rejected, or a finding's class
        self.detail = detail
        self.seconds = seconds

    def is_finding(self):
        return self.kind not in ("accepted", "rejected", "asm-rejected")


def limit_memory(megabytes):
    def apply():
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def classify_diagnostic(stderr):
    """None when stderr is a proper diagnostic, else what is wrong."""
    for mark in CRASH_MARKS:
        if mark in stderr:
            return "crash", mark
    for mark in INTERNAL_MARKS:
        if mark in stderr:
            return "internal-message", mark
    located = LOCATED_ERROR.search(stderr)
    if located:
        # The source line and a caret under it follow the message.
        rest = stderr[located.end():].split("\n")
        if len(rest) < 3 or "^" not in rest[2]:
            return "no-caret", located.group(0)
        return None
    if TOOL_ERROR.search(stderr):
        return None
    return "no-diagnostic", stderr.strip()[:200]


def run_case(case, tilec, ptxas, timeout, memory_mb):
    with tempfile.TemporaryDirectory(prefix="tilec-mutant-") as tmp:
        source = os.path.join(tmp, "mutant.tile")
        output = os.path.join(tmp, "mutant.out")
        with open(source, "w", encoding="utf-8",
                  errors="surrogateescape") as f:
            f.write(case.text)
        command = [tilec, source] + case.args + ["-o", output]
        start = time.monotonic()
        try:
            proc = subprocess.run(command, stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=timeout,
                                  preexec_fn=limit_memory(memory_mb))
        except subprocess.TimeoutExpired:
            return Outcome("hang", f"past {timeout} s", timeout)
        seconds = time.monotonic() - start
        stderr = proc.stderr.decode("utf-8", errors="replace")
        if proc.returncode < 0:
            return Outcome("crash", f"signal {-proc.returncode}", seconds)
        problem = classify_diagnostic(stderr)
        if proc.returncode != 0:
            if proc.returncode != 1:
                return Outcome("crash", f"exit {proc.returncode}", seconds)
            if problem:
                return Outcome(problem[0], problem[1], seconds)
            return Outcome("rejected", "", seconds)
        if problem and problem[0] == "crash":
            return Outcome("crash", problem[1], seconds)
        emit = case.args[case.args.index("--emit") + 1] \
            if "--emit" in case.args else "ptx"
        if emit != "ptx" or not ptxas:
            return Outcome("accepted", "", seconds)
        arch = case.arch()
        try:
            asm = subprocess.run([ptxas, "--gpu-name", arch, output, "-o",
                                  os.path.join(tmp, "mutant.cubin")],
                                 capture_output=True, timeout=timeout * 3)
        except subprocess.TimeoutExpired:
            return Outcome("ptxas-hang", arch, seconds)
        if asm.returncode != 0:
            message = asm.stderr.decode("utf-8", errors="replace").strip()
            if rejects_only_inline_asm(message, output):
                return Outcome("asm-rejected", message[:300], seconds)
            return Outcome("ptxas-rejected", message[:300], seconds)
        return Outcome("accepted", "", seconds)


PTXAS_LINE = re.compile(r", line (\d+);")


def rejects_only_inline_asm(message, ptx_path):
    """True when every line ptxas names lies in an inline asm block.

    The text of tl.inline_asm_elementwise is the user's PTX, put into the
    kernel verbatim as Triton does (LLVM brackets it with `// begin inline
    asm` and `// end inline asm`); a mutant that breaks it is rejected by
    ptxas, as it would be under Triton, and is not a compiler finding.
    """
    lines = [int(n) for n in PTXAS_LINE.findall(message)]
    if not lines:
        return False
    with open(ptx_path, encoding="utf-8", errors="replace") as f:
        ptx = f.read().splitlines()
    inside, in_asm = set(), False
    for number, text in enumerate(ptx, 1):
        if "// begin inline asm" in text:
            in_asm = True
        elif "// end inline asm" in text:
            in_asm = False
        elif in_asm:
            inside.add(number)
    return all(n in inside for n in lines)


def minimize(case, outcome, run):
    """Removes lines, then tokens, while `run` gives the same kind."""
    def same(candidate):
        return run(candidate).kind == outcome.kind

    def ddmin(units, rebuild):
        n = 2
        while len(units) >= 2:
            chunk = max(1, len(units) // n)
            removed = False
            for start in range(0, len(units), chunk):
                trial = units[:start] + units[start + chunk:]
                if trial and same(rebuild(trial)):
                    units, n, removed = trial, max(n - 1, 2), True
                    break
            if not removed:
                if chunk == 1:
                    break
                n = min(len(units), n * 2)
        return units

    lines = ddmin(case.text.splitlines(keepends=True),
                  lambda ls: Case("".join(ls), case.args))
    best = Case("".join(lines), case.args, case.origin)
    # Arguments that do not matter go too (-W flags, -D of unused names).
    args = list(best.args)
    i = 0
    while i < len(args):
        width = 2 if args[i] in ("-D", "--num-stages", "--num-warps",
                                 "--program-group") else 1
        if args[i] in ("--kernel", "--signature", "-o"):
            i += 2
            continue
        trial = Case(best.text, args[:i] + args[i + width:], best.origin)
        if same(trial):
            args = trial.args
        else:
            i += width
    return Case(best.text, args, best.origin)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tilec", required=True)
    parser.add_argument("--ptxas", default="",
                        help="ptxas for accepted mutants (default: found in "
                             "$CUDA_HOME/bin, /usr/local/cuda/bin or PATH)")
    parser.add_argument("--manifest", help="the examples' ptx-manifest.tsv")
    parser.add_argument("--source-root",
                        help="where the manifest's sources are (default: "
                             "examples/ next to this script)")
    parser.add_argument("--replay", metavar="DIR",
                        help="run the kept findings in DIR instead")
    parser.add_argument("--count", type=int, default=0,
                        help="mutants to run (0: until --seconds)")
    parser.add_argument("--seconds", type=float, default=0,
                        help="stop after this long (0: after --count)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--memory-mb", type=int, default=4096)
    parser.add_argument("--keep", metavar="DIR",
                        help="write minimized findings here")
    parser.add_argument("--no-minimize", action="store_true")
    opts = parser.parse_args()

    ptxas = opts.ptxas
    if not ptxas:
        for root in (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"):
            candidate = os.path.join(root, "bin", "ptxas")
            if root and os.access(candidate, os.X_OK):
                ptxas = candidate
                break
        else:
            ptxas = next((os.path.join(d, "ptxas") for d in
                          os.environ.get("PATH", "").split(os.pathsep)
                          if os.access(os.path.join(d, "ptxas"), os.X_OK)),
                         "")

    def run(case):
        return run_case(case, opts.tilec, ptxas, opts.timeout, opts.memory_mb)

    if opts.replay:
        failures = 0
        paths = sorted(os.path.join(opts.replay, p)
                       for p in os.listdir(opts.replay) if p.endswith(".tile"))
        for path in paths:
            outcome = run(Case.parse(path))
            status = "FINDING " + outcome.kind if outcome.is_finding() \
                else outcome.kind
            print(f"{os.path.basename(path)}: {status} {outcome.detail}")
            failures += outcome.is_finding()
        print(f"mutation-fuzz: replayed {len(paths)} inputs, "
              f"{failures} findings")
        return 1 if failures else 0

    if not opts.manifest:
        parser.error("--manifest or --replay is required")
    source_root = opts.source_root or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "examples")
    bases = read_manifest(opts.manifest, source_root)
    if not opts.count and not opts.seconds:
        opts.count = 200
    rng = random.Random(opts.seed)
    counts = {}
    findings = []
    seen = set()
    start = time.monotonic()
    done = 0

    def next_mutants(n):
        out = []
        while len(out) < n:
            mutant = mutate(rng.choice(bases), rng)
            if mutant is not None:
                out.append(mutant)
        return out

    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        while True:
            if opts.count and done >= opts.count:
                break
            if opts.seconds and time.monotonic() - start >= opts.seconds:
                break
            batch = opts.jobs * 4
            if opts.count:
                batch = min(batch, opts.count - done)
            mutants = next_mutants(batch)
            for mutant, outcome in zip(mutants, pool.map(run, mutants)):
                done += 1
                counts[outcome.kind] = counts.get(outcome.kind, 0) + 1
                if not outcome.is_finding():
                    continue
                key = (outcome.kind, outcome.detail[:80], mutant.origin)
                if key in seen:
                    continue
                seen.add(key)
                findings.append((mutant, outcome))
                print(f"finding: {outcome.kind} ({outcome.detail[:160]}) in a "
                      f"mutant of {mutant.origin}", flush=True)

    elapsed = time.monotonic() - start
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(f"mutation-fuzz: {done} mutants in {elapsed:.0f} s (seed "
          f"{opts.seed}): {summary}")
    for mutant, outcome in findings:
        kept = mutant if opts.no_minimize else minimize(mutant, outcome, run)
        digest = hashlib.sha1(kept.serialize().encode(
            "utf-8", errors="surrogateescape")).hexdigest()[:10]
        name = f"{outcome.kind}-{digest}.tile"
        if opts.keep:
            os.makedirs(opts.keep, exist_ok=True)
            with open(os.path.join(opts.keep, name), "w", encoding="utf-8",
                      errors="surrogateescape") as f:
                f.write(kept.serialize())
            print(f"mutation-fuzz: kept {os.path.join(opts.keep, name)} "
                  f"(copy it to test/Fuzz/Inputs/Mutants once fixed)")
        print(f"--- {name} ---\n{kept.serialize()}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
