# Scratch (not committed): Liger-Kernel's _moe_router_scatter_kernel under
# Triton and under tilec (PTX launched through tilec's runtime) on the same
# inputs; every output must be identical.
import importlib.machinery, importlib.util, pathlib, sys
import torch, triton
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "bench"))
import tilec_runtime

here = pathlib.Path(__file__).resolve().parent
loader = importlib.machinery.SourceFileLoader("liger_moe", str(here / "liger_fused_moe_kernels.txt"))
spec = importlib.util.spec_from_loader("liger_moe", loader)
mod = importlib.util.module_from_spec(spec)
loader.exec_module(mod)
kern = mod._moe_router_scatter_kernel
while not isinstance(kern, triton.runtime.jit.JITFunction):
    kern = kern.fn

K, K_POW2, TPB, BM = 8, 8, 64, 128
ctx = tilec_runtime.Runtime().context()
tk = ctx.load_module(here / "moe_scatter_tilec.txt").kernel("_moe_router_scatter_kernel")
ok = True
for T, E in ((1, 8), (1000, 64), (4099, 128), (16384, 256)):
    torch.manual_seed(T)
    TK = T * K
    blk = TPB * K_POW2
    n_tiles = triton.cdiv(T * K_POW2, blk)
    # Distinct experts per token, as top-k gives.
    topk = torch.rand(T, E, device="cuda").argsort(dim=1)[:, :K].to(torch.int32).contiguous()
    flat = topk.flatten().long()
    tile_of = torch.arange(TK, device="cuda") // blk
    counts = torch.zeros(E, n_tiles, dtype=torch.int64, device="cuda")
    counts.index_put_((flat, tile_of), torch.ones(TK, dtype=torch.int64, device="cuda"), accumulate=True)
    partial = (counts.cumsum(1) - counts).to(torch.int32).contiguous()
    per_expert = counts.sum(1)
    expert_start = (per_expert.cumsum(0) - per_expert).to(torch.int32).contiguous()
    tiles = (per_expert + BM - 1) // BM
    tile_offset = (tiles.cumsum(0) - tiles).to(torch.int32).contiguous()
    num_m_tiles = int(tiles.sum().item())
    results = []
    for impl in ("triton", "tilec"):
        outs = [torch.full((TK,), -7, dtype=torch.int32, device="cuda") for _ in range(3)]
        outs += [torch.full((num_m_tiles + 1,), -7, dtype=torch.int32, device="cuda") for _ in range(2)]
        args = (*outs, topk, T, partial, n_tiles, expert_start, tile_offset)
        if impl == "triton":
            kern[(n_tiles,)](*args, K_POW2=K_POW2, K=K, TOKENS_PER_BLOCK=TPB, BLOCK_M_TOKEN=BM)
        else:
            tk[(n_tiles,)](*args)
        torch.cuda.synchronize()
        results.append(outs)
    same = all(torch.equal(a, b) for a, b in zip(*results))
    # The scatter must be a permutation.
    perm = results[1][0].sort().values.cpu()
    is_perm = torch.equal(perm, torch.arange(TK, dtype=torch.int32))
    print(f"T={T} E={E}: tilec == triton: {same}; s_scatter_idx a permutation: {is_perm}")
    ok &= same and is_perm
print("moe router check:", "PASS" if ok else "FAIL")
