//===- Imports.cpp - Files a kernel's file imports ------------------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// A .tile file is a Python module and imports helpers from other files as
// Python does: `import mylib as tle`, `from .ext import helper`,
// `from pkg.sub import f`. A module NAME is the file NAME.tile or NAME.py, or
// the package NAME/__init__.tile, NAME/__init__.py or the bare directory
// NAME. Relative imports start from the importing file's directory;
// absolute ones look next to the kernel's file, then in the -I directories
// (the source manager's include directories). A name no file matches
// (torch, typing, a package of the host program) is a host module, left to
// its uses, which report it.
//
// Each file is read into the kernel's source manager, so that its
// diagnostics show its own lines, and its module-level statements run once,
// under the kernel file's rules, with names of its own: a function it
// defines sees them when it is called (Generator::homes).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Frontend/Parser.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tilec;

std::string tilec::directoryOf(llvm::StringRef path) {
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(path));
  if (dir.empty())
    dir = ".";
  // Absolute, so that `..` in relative imports climbs past it.
  (void)llvm::sys::fs::make_absolute(dir);
  llvm::sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
  return dir.str().str();
}

std::string tilec::missingModuleHint(llvm::StringRef path) {
  std::string top = path.split('.').first.str();
  return ": tilec found no " + top + ".tile, " + top + ".py or " + top +
         "/ next to the kernel's file or in an -I directory";
}

namespace {
/// Where a module is: a file, or a bare directory (a namespace package).
struct ModuleFile {
  std::string path;
  bool package = false;
};
} // namespace

/// Module `name` (one component of a dotted name) in `dir`, if there is one.
static std::optional<ModuleFile> findModule(llvm::StringRef dir,
                                            llvm::StringRef name) {
  llvm::SmallString<256> base(dir);
  llvm::sys::path::append(base, name);
  for (const char *extension : {".tile", ".py"}) {
    std::string file = (base + extension).str();
    if (llvm::sys::fs::is_regular_file(file))
      return ModuleFile{file, false};
  }
  for (const char *init : {"__init__.tile", "__init__.py"}) {
    llvm::SmallString<256> file(base);
    llvm::sys::path::append(file, init);
    if (llvm::sys::fs::is_regular_file(file))
      return ModuleFile{file.str().str(), true};
  }
  if (llvm::sys::fs::is_directory(base))
    return ModuleFile{base.str().str(), true};
  return std::nullopt;
}

TValue Generator::moduleOf(SourceModule &m) {
  TValue module = TValue::named(TValue::Kind::Module, m.name);
  module.source = &m;
  return module;
}

FailureOr<SourceModule *> Generator::loadModule(llvm::StringRef path,
                                                bool package,
                                                llvm::StringRef name,
                                                llvm::SMLoc at) {
  llvm::SmallString<256> key;
  if (llvm::sys::fs::real_path(path, key))
    key = path;
  std::string cacheKey = key.str().str();
  if (cacheKey == mainKey) {
    // The kernel's file, imported by its own package (`from .parallel import
    // f` in an __init__): it runs there, once, as in Python.
    if (!mainStarted && !runMainModule())
      return error(at) << "importing '" << name << "' failed: the error above";
    return &mainModule;
  }
  auto found = importedModules.find(cacheKey);
  if (found != importedModules.end())
    return found->second.get();
  auto owned = std::make_unique<SourceModule>();
  SourceModule *module = owned.get();
  module->name = name.str();
  module->package = package;
  bool bareDirectory = llvm::sys::fs::is_directory(path);
  module->dir = bareDirectory ? path.str() : directoryOf(path);
  importedModules[cacheKey] = std::move(owned);
  if (bareDirectory)
    return module;
  // As in Python, a module whose import failed is not kept: importing it
  // again (in a `try` handler, another branch) runs it again. Values made
  // while it ran may still point at it, so it is parked, not freed.
  auto abandon = [&] {
    auto it = importedModules.find(cacheKey);
    failedModules.push_back(std::move(it->second));
    importedModules.erase(it);
    return failure();
  };

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error(at) << "cannot read '" << path << "', imported as '" << name
              << "': " << buffer.getError().message();
    return abandon();
  }
  // No include location: its diagnostics start with their own file:line:col.
  unsigned id = srcMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  module->ast = parseModule(srcMgr, id);
  if (!module->ast) {
    error(at) << "'" << name << "' (" << path
              << ") does not parse: the error above";
    return abandon();
  }

  // Its module-level statements run as the kernel file's do: host code,
  // with module-level names only, operations into the scratch module.
  OpBuilder::InsertionGuard insertion(builder);
  builder.setInsertionPointToEnd(scratch->getBody());
  HostCode host(*this);
  Scope noLocals;
  Scope *savedScope = scope;
  SourceModule *savedModule = current;
  scope = &noLocals;
  current = module;
  module->loading = true;
  bool ok = runModuleLevel(module->ast->getBody(), /*kernels=*/nullptr, "");
  module->loading = false;
  current = savedModule;
  scope = savedScope;
  if (!ok) {
    error(at) << "importing '" << name << "' failed: the error above";
    return abandon();
  }
  return module;
}

bool Generator::runMainModule() {
  mainStarted = true;
  OpBuilder::InsertionGuard insertion(builder);
  builder.setInsertionPointToEnd(scratch->getBody());
  HostCode host(*this);
  Scope noLocals;
  Scope *savedScope = scope;
  SourceModule *savedModule = current;
  scope = &noLocals;
  current = &mainModule;
  mainModule.loading = true;
  bool ok = runModuleLevel(moduleAST.getBody(), mainKernels, mainSelected);
  mainModule.loading = false;
  current = savedModule;
  scope = savedScope;
  mainFailed = !ok;
  return ok;
}

/// True if `dir` is a package: it has an __init__ file.
static bool isPackageDirectory(llvm::StringRef dir) {
  for (const char *init : {"__init__.tile", "__init__.py"}) {
    llvm::SmallString<256> file(dir);
    llvm::sys::path::append(file, init);
    if (llvm::sys::fs::is_regular_file(file))
      return true;
  }
  return false;
}

bool Generator::importMainPackages() {
  std::vector<std::string> chain;
  llvm::SmallString<256> dir(mainModule.dir);
  while (isPackageDirectory(dir)) {
    chain.insert(chain.begin(), llvm::sys::path::filename(dir).str());
    llvm::SmallString<256> parent(llvm::sys::path::parent_path(dir));
    if (parent.empty() || parent == dir)
      break;
    dir = parent;
  }
  // Directories without an __init__ are packages too (namespace packages,
  // PEP 420) where Python finds them through sys.path: the file's dotted
  // name under the first -I directory that holds it, when that says more.
  llvm::SmallString<256> mainDir;
  if (llvm::sys::fs::real_path(mainModule.dir, mainDir))
    mainDir = mainModule.dir;
  for (const std::string &include : srcMgr.getIncludeDirs()) {
    llvm::SmallString<256> root;
    if (llvm::sys::fs::real_path(include, root))
      continue;
    llvm::StringRef rest = mainDir;
    if (!rest.consume_front(root) || (!rest.empty() && !rest.starts_with("/")))
      continue;
    llvm::SmallVector<llvm::StringRef> parts;
    rest.ltrim('/').split(parts, '/', -1, /*KeepEmpty=*/false);
    if (parts.size() > chain.size()) {
      chain.assign(parts.begin(), parts.end());
      dir = root;
    }
    break;
  }
  if (chain.empty())
    return true;
  packageRoot = dir.str().str();
  std::string package = llvm::join(chain, ".");
  mainModule.name =
      package + "." +
      llvm::sys::path::stem(
          srcMgr.getMemoryBuffer(srcMgr.getMainFileID())->getBufferIdentifier())
          .str();

  // Every diagnostic is held back while the packages import: their own
  // warnings are not the kernel's business, and their errors matter only if
  // the kernel file fails with them.
  struct Held {
    Location location;
    DiagnosticSeverity severity;
    std::string text;
    std::vector<std::pair<Location, std::string>> notes;
    bool inKernelFile;
  };
  std::vector<Held> held;
  bool imported;
  {
    ScopedDiagnosticHandler hold(&context, [&](Diagnostic &diag) {
      auto file = dyn_cast<FileLineColLoc>(diag.getLocation());
      Held h{diag.getLocation(),
             diag.getSeverity(),
             diag.str(),
             {},
             file && file.getFilename() == fileName && file.getLine() > 0};
      for (Diagnostic &note : diag.getNotes())
        h.notes.push_back({note.getLocation(), note.str()});
      held.push_back(std::move(h));
      return success();
    });
    imported = succeeded(importFile(package, llvm::SMLoc()));
  }
  auto replay = [&](const Held &h) {
    InFlightDiagnostic diag =
        h.severity == DiagnosticSeverity::Error     ? emitError(h.location)
        : h.severity == DiagnosticSeverity::Warning ? emitWarning(h.location)
                                                    : emitRemark(h.location);
    diag << h.text;
    for (const auto &[noteLoc, text] : h.notes)
      diag.attachNote(noteLoc) << text;
  };
  if (mainFailed) {
    // The kernel file failed inside: its errors and those they refer to
    // (not the last, placeless "importing 'pkg' failed").
    for (const Held &h : held) {
      auto file = dyn_cast<FileLineColLoc>(h.location);
      if (h.inKernelFile || (h.severity == DiagnosticSeverity::Error &&
                             !(file && file.getLine() == 0)))
        replay(h);
    }
    return false;
  }
  if (imported) {
    for (const Held &h : held)
      if (h.inKernelFile)
        replay(h);
    return true;
  }
  std::string firstError;
  for (const Held &h : held)
    if (h.severity == DiagnosticSeverity::Error && firstError.empty()) {
      llvm::raw_string_ostream os(firstError);
      if (auto file = dyn_cast<FileLineColLoc>(h.location))
        os << file.getFilename().getValue() << ":" << file.getLine() << ":"
           << file.getColumn() << ": ";
      os << h.text;
    }
  // Python would stop here; tilec compiles the file on its own.
  llvm::SMLoc fileStart = llvm::SMLoc::getFromPointer(
      srcMgr.getMemoryBuffer(srcMgr.getMainFileID())->getBufferStart());
  warning(fileStart,
          "importing the package '" + package +
              "', which Python imports "
              "before '" +
              mainModule.name +
              "', failed; compiling the file on "
              "its own",
          "the first error: " + firstError);
  mainStarted = false;
  mainModule.globals.clear();
  mainKernels->clear();
  return true;
}

/// True if `top` names a module of Python 3's standard library
/// (sys.stdlib_module_names without the private ones): Python has it imported
/// before any user file could shadow it, so `import copy` in a helper never
/// reads a copy.py next to the kernel.
static bool isStandardLibraryModule(llvm::StringRef top) {
  static const char *const names[] = {
      "abc",
      "aifc",
      "antigravity",
      "argparse",
      "array",
      "ast",
      "asynchat",
      "asyncio",
      "asyncore",
      "atexit",
      "audioop",
      "base64",
      "bdb",
      "binascii",
      "bisect",
      "builtins",
      "bz2",
      "cProfile",
      "calendar",
      "cgi",
      "cgitb",
      "chunk",
      "cmath",
      "cmd",
      "code",
      "codecs",
      "codeop",
      "collections",
      "colorsys",
      "compileall",
      "concurrent",
      "configparser",
      "contextlib",
      "contextvars",
      "copy",
      "copyreg",
      "crypt",
      "csv",
      "ctypes",
      "curses",
      "dataclasses",
      "datetime",
      "dbm",
      "decimal",
      "difflib",
      "dis",
      "distutils",
      "doctest",
      "email",
      "encodings",
      "ensurepip",
      "enum",
      "errno",
      "faulthandler",
      "fcntl",
      "filecmp",
      "fileinput",
      "fnmatch",
      "fractions",
      "ftplib",
      "functools",
      "gc",
      "genericpath",
      "getopt",
      "getpass",
      "gettext",
      "glob",
      "graphlib",
      "grp",
      "gzip",
      "hashlib",
      "heapq",
      "hmac",
      "html",
      "http",
      "idlelib",
      "imaplib",
      "imghdr",
      "imp",
      "importlib",
      "inspect",
      "io",
      "ipaddress",
      "itertools",
      "json",
      "keyword",
      "lib2to3",
      "linecache",
      "locale",
      "logging",
      "lzma",
      "mailbox",
      "mailcap",
      "marshal",
      "math",
      "mimetypes",
      "mmap",
      "modulefinder",
      "msilib",
      "msvcrt",
      "multiprocessing",
      "netrc",
      "nis",
      "nntplib",
      "nt",
      "ntpath",
      "nturl2path",
      "numbers",
      "opcode",
      "operator",
      "optparse",
      "os",
      "ossaudiodev",
      "pathlib",
      "pdb",
      "pickle",
      "pickletools",
      "pipes",
      "pkgutil",
      "platform",
      "plistlib",
      "poplib",
      "posix",
      "posixpath",
      "pprint",
      "profile",
      "pstats",
      "pty",
      "pwd",
      "py_compile",
      "pyclbr",
      "pydoc",
      "pydoc_data",
      "pyexpat",
      "queue",
      "quopri",
      "random",
      "re",
      "readline",
      "reprlib",
      "resource",
      "rlcompleter",
      "runpy",
      "sched",
      "secrets",
      "select",
      "selectors",
      "shelve",
      "shlex",
      "shutil",
      "signal",
      "site",
      "smtpd",
      "smtplib",
      "sndhdr",
      "socket",
      "socketserver",
      "spwd",
      "sqlite3",
      "sre_compile",
      "sre_constants",
      "sre_parse",
      "ssl",
      "stat",
      "statistics",
      "string",
      "stringprep",
      "struct",
      "subprocess",
      "sunau",
      "symtable",
      "sys",
      "sysconfig",
      "syslog",
      "tabnanny",
      "tarfile",
      "telnetlib",
      "tempfile",
      "termios",
      "textwrap",
      "this",
      "threading",
      "time",
      "timeit",
      "tkinter",
      "token",
      "tokenize",
      "tomllib",
      "trace",
      "traceback",
      "tracemalloc",
      "tty",
      "turtle",
      "turtledemo",
      "types",
      "typing",
      "unicodedata",
      "unittest",
      "urllib",
      "uu",
      "uuid",
      "venv",
      "warnings",
      "wave",
      "weakref",
      "webbrowser",
      "winreg",
      "winsound",
      "wsgiref",
      "xdrlib",
      "xml",
      "xmlrpc",
      "zipapp",
      "zipfile",
      "zipimport",
      "zlib",
      "zoneinfo",
  };
  return llvm::is_contained(names, top);
}

FailureOr<SourceModule *> Generator::importFile(llvm::StringRef dotted,
                                                llvm::SMLoc at) {
  size_t dots = dotted.find_first_not_of('.');
  if (dots == llvm::StringRef::npos)
    dots = dotted.size();
  llvm::StringRef rest = dotted.drop_front(dots);
  std::vector<std::string> dirs;
  if (dots) {
    // `from .ext import f`, `from .. import pkg`: from the importing file's
    // directory, one level up for every dot after the first.
    llvm::SmallString<256> base(current->dir);
    for (size_t i = 1; i < dots; ++i)
      base = llvm::sys::path::parent_path(base);
    if (rest.empty()) {
      for (const char *init : {"__init__.tile", "__init__.py"}) {
        llvm::SmallString<256> file(base);
        llvm::sys::path::append(file, init);
        if (llvm::sys::fs::is_regular_file(file))
          return loadModule(file, /*package=*/true, dotted, at);
      }
      return loadModule(base, /*package=*/true, dotted, at);
    }
    dirs.push_back(base.str().str());
  } else {
    // tilec reads these itself; they are never files of the user's.
    llvm::StringRef top = rest.split('.').first;
    if (top == "triton" || top == "torch" || isStandardLibraryModule(top))
      return nullptr;
    dirs.push_back(mainModule.dir);
    if (!packageRoot.empty())
      dirs.push_back(packageRoot);
    for (const std::string &dir : srcMgr.getIncludeDirs())
      dirs.push_back(dir);
  }

  llvm::SmallVector<llvm::StringRef> parts;
  rest.split(parts, '.');
  std::optional<ModuleFile> file;
  for (const std::string &dir : dirs)
    if ((file = findModule(dir, parts.front())))
      break;
  if (!file) {
    if (!dots)
      return nullptr;
    return error(at) << "no module '" << parts.front() << "' in '"
                     << dirs.front() << "' (looked for " << parts.front()
                     << ".tile, " << parts.front() << ".py and "
                     << parts.front() << "/__init__.py)";
  }
  std::string name = dotted.take_front(dots).str() + parts.front().str();
  FailureOr<SourceModule *> module =
      loadModule(file->path, file->package, name, at);
  for (llvm::StringRef part : llvm::drop_begin(parts)) {
    if (failed(module))
      return failure();
    if (!(*module)->package)
      return error(at) << "'" << name << "' is a file, not a package: it has "
                       << "no submodule '" << part << "'";
    name += "." + part.str();
    std::optional<ModuleFile> sub = findModule((*module)->dir, part);
    if (!sub)
      return error(at) << "no module named '" << name << "' ('"
                       << (*module)->dir << "' has no " << part << ".tile or "
                       << part << ".py)";
    module = loadModule(sub->path, sub->package, name, at);
  }
  return module;
}

/// The name `attr` of the imported file `m` as bound there (a deferred value
/// stays deferred), or a submodule of a package.
static FailureOr<TValue> lookupName(Generator &gen, SourceModule &m,
                                    llvm::StringRef attr, llvm::SMLoc at) {
  auto it = m.globals.find(attr.str());
  if (it != m.globals.end())
    return it->second;
  if (m.package) {
    std::string dotted = m.name +
                         (llvm::StringRef(m.name).ends_with(".") ? "" : ".") +
                         attr.str();
    if (std::optional<ModuleFile> sub = findModule(m.dir, attr)) {
      FailureOr<SourceModule *> module =
          gen.loadModule(sub->path, sub->package, dotted, at);
      if (failed(module))
        return failure();
      return Generator::moduleOf(**module);
    }
  }
  auto diag = gen.error(at)
              << "module '" << m.name << "' has no name '" << attr << "'";
  if (m.loading)
    diag << " yet (it is being imported: a circular import sees only the "
            "names bound before it)";
  return diag;
}

FailureOr<TValue> Generator::moduleAttribute(SourceModule &m,
                                             llvm::StringRef attr,
                                             llvm::SMLoc at) {
  FailureOr<TValue> value = lookupName(*this, m, attr, at);
  if (succeeded(value) && value->deferred)
    return evaluateDeferred(*value, m.name + "." + attr.str(), at);
  return value;
}

LogicalResult Generator::bindImport(const ImportStmtAST &stmt) {
  for (const ImportAlias &name : stmt.getNames()) {
    llvm::SMLoc at = name.range.Start;
    FailureOr<SourceModule *> file = importFile(name.name, at);
    if (failed(file))
      return failure();
    if (!name.alias.empty()) {
      globals()[name.alias] =
          *file ? moduleOf(**file)
                : TValue::named(TValue::Kind::Module, name.name);
      continue;
    }
    // `import a.b` binds `a`.
    llvm::StringRef top = llvm::StringRef(name.name).split('.').first;
    if (!*file) {
      globals()[top.str()] = TValue::named(TValue::Kind::Module, top);
      continue;
    }
    FailureOr<SourceModule *> package = importFile(top, at);
    if (failed(package))
      return failure();
    globals()[top.str()] = moduleOf(**package);
  }
  return success();
}

LogicalResult Generator::bindFromImport(const FromImportStmtAST &stmt) {
  llvm::StringRef module = stmt.getModule();
  FailureOr<SourceModule *> file = importFile(module, stmt.getLoc());
  if (failed(file))
    return failure();
  for (const ImportAlias &name : stmt.getNames()) {
    if (name.name == "*") {
      // The public names of a file; a host module's are unknown to tilec,
      // and a kernel using one gets "name is not defined".
      if (*file)
        for (const auto &[bound, value] : (*file)->globals)
          if (!llvm::StringRef(bound).starts_with("_"))
            globals()[bound] = value;
      continue;
    }
    std::string full = module.str() + "." + name.name;
    std::string bound = name.alias.empty() ? name.name : name.alias;
    if (*file) {
      FailureOr<TValue> value =
          lookupName(*this, **file, name.name, name.range.Start);
      if (failed(value))
        return failure();
      globals()[bound] = *value;
    } else if (module.starts_with("triton.language.extra") &&
               module.ends_with("libdevice")) {
      std::optional<TValue> f = libdeviceBuiltin(name.name);
      if (!f)
        return libdeviceError(*this, full, name.range.Start);
      globals()[bound] = *f;
    } else if (full == "typing.TYPE_CHECKING") {
      // False when the module runs: `if TYPE_CHECKING:` imports are for type
      // checkers only (and would make import cycles).
      globals()[bound] = TValue::ofBool(false);
    } else if (!module.starts_with("triton") &&
               (name.name == "triton" || name.name == "tl")) {
      // A host module that re-exports Triton under its usual names (vLLM's
      // `from vllm.triton_utils import tl, triton`, which stands in
      // placeholders where Triton is missing): tilec is that Triton.
      globals()[bound] =
          TValue::named(TValue::Kind::Module,
                        name.name == "tl" ? "triton.language" : "triton");
    } else if (isModulePath(full) || !module.starts_with("triton.language")) {
      // What tilec models of the module (`from math import sqrt`, `from
      // triton import autotune`, `from torch.utils._triton import
      // has_triton`), else the name as a module of its own, an error where
      // it is used.
      std::optional<TValue> known;
      if (!isModulePath(full))
        known = findModuleAttribute(TValue::named(TValue::Kind::Module, module),
                                    name.name, name.range.Start);
      globals()[bound] =
          known ? *known : TValue::named(TValue::Kind::Module, full);
    } else if (TValue t = dtypeNamed(name.name); !t.isNone()) {
      globals()[bound] = t;
    } else {
      globals()[bound] =
          TValue::named(TValue::Kind::Builtin, "tl." + name.name);
    }
  }
  return success();
}
