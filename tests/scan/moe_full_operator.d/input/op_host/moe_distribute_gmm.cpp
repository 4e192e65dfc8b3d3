// host side: not under the kernel root, never scanned
namespace ops { class MoeDistributeGmm {}; }
