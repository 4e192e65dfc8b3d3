# Python forms the scanner must get through (fuzz seed and a smoke test).
import torch.multiprocessing as mp
from pathlib import Path


@decorator(arg=f"{x!r:>{width}}")
async def worker(rank, /, prof, *rest, key=lambda v: v[0], **kw) -> "tuple[int, str]":
    s = f'{rank["a"]}' f"{{literal}}" r'\'' """triple "quoted" ''' text"""
    t = f"""multi
    {(rank +
       1)} line"""
    match rank:
        case 0: print("zero"); return
        case _:
            pass
    if (a := len(prof)) > 1: x = [i for i in range(a) if i % 2]
    *head, _ = await torch.ops.npu.op(rank,
                                       prof)  # trailing comment (with paren
    with open(prof) as f, open(s) as g:
        data = {k: v for k, v in zip(f, g)}
    try:
        torch_npu.npu.synchronize()
    except (RuntimeError, ValueError) as e:
        raise SystemExit(e) from None
    finally:
        save_profiling_data(head[-1], rank, prof)


class Runner(Base, metaclass=Meta):
    def __init__(self): self.dir = Path("~/prof").expanduser().resolve()


if __name__ == "__main__":
    prof = "prof"; mp.spawn(worker, args=(prof,), nprocs=2, join=False)
