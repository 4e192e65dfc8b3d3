import unittest

import torch
import torch_npu


class TestVsplit(unittest.TestCase):
    def test_vsplit(self):
        x = torch.full((16,), 2.5, device="npu")
        lo, hi = torch.ops.npu.vsplit(x)
        self.assertTrue(torch.all(lo.cpu() == 0.5))
        self.assertTrue(torch.all(hi.cpu() == 2))


if __name__ == "__main__":
    unittest.main()
