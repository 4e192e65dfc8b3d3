import unittest

import torch
import torch_npu


class TestVrelu(unittest.TestCase):
    def test_vrelu(self):
        x = torch.arange(-4, 4, dtype=torch.float32, device="npu")
        y = torch.ops.npu.vrelu_(x)
        self.assertTrue(torch.all(y.cpu() >= 0))


if __name__ == "__main__":
    unittest.main()
