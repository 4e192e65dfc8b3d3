import unittest

import torch
import torch_npu


class TestVadd(unittest.TestCase):
    def test_vadd(self):
        x = torch.ones(64, device="npu")
        y = torch.ones(64, device="npu")
        z = torch.empty(64, device="npu")
        torch.ops.npu.vadd(x, y, z)
        self.assertTrue(torch.all(z == 2))


if __name__ == "__main__":
    unittest.main()
