import unittest

import torch
import torch_npu


class Test(unittest.TestCase):
    def test_vcount(self):
        x = torch.ones(8, device="npu")
        y = torch.empty(8, device="npu")
        torch.ops.npu.vcount(x, y)


if __name__ == "__main__":
    unittest.main()
