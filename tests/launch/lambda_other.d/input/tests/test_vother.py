import unittest

import torch
import torch_npu


class Test(unittest.TestCase):
    def test_vother(self):
        x = torch.ones(8, device="npu")
        y = torch.empty(8, device="npu")
        torch.ops.npu.vother(x, y)


if __name__ == "__main__":
    unittest.main()
