#pragma once
// a stand-in for the toolchain header, outside the kernel root
