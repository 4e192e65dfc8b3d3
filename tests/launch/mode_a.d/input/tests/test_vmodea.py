import unittest

import torch
import torch_npu


class Test(unittest.TestCase):
    def test_vmodea(self):
        x = torch.ones(8, device="npu")
        y = torch.empty(8, device="npu")
        torch.ops.npu.vmodea(x, y)


if __name__ == "__main__":
    unittest.main()
