"""A unit test that stands the op in with Python functions taking *args:
one returns a tuple it built before, one returns its values written out.
In mode B each returns one more value (made where torch makes it)."""
import torch


def test_route_with_prepared_outputs(monkeypatch):
    expected = (torch.empty((2, 4)), torch.zeros(4, dtype=torch.int64))

    def fake_dispatch(*args):
        return (*expected, torch.empty(128 * 3 * 2048, dtype=torch.int64))

    monkeypatch.setattr(torch.ops.npu, "moe_distribute_dispatch_gmm", fake_dispatch)


def test_route_written_out(monkeypatch):
    def fake_dispatch_written(*args, **kwargs):
        return torch.empty((2, 4)), torch.zeros(4, dtype=torch.int64), torch.empty(128 * 3 * 2048, dtype=torch.int64)

    monkeypatch.setattr(torch.ops.npu, "moe_distribute_dispatch_gmm", fake_dispatch_written)
