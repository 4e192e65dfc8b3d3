import unittest

import torch
import torch_npu


class TestVscale(unittest.TestCase):
    def test_vscale(self):
        x = torch.ones(8, device="npu")
        y = torch.ops.npu.vscale(x)
        self.assertTrue(torch.all(y.cpu() == 2))

    def test_vscale_contiguous(self):
        x = torch.ones(8, device="npu")
        y = torch.ops.npu.vscale(x).contiguous()
        self.assertEqual(y.numel(), 8)


if __name__ == "__main__":
    unittest.main()
