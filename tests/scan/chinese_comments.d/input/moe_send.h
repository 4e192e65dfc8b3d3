#pragma once
// 发送核: 负责把 token 发往目标 rank
#define SEND_BLOCK 32 // 每次发送 32 个 token { 注意: 不是括号
/* 多行注释:
 * 阶段一 { 等待 } 阶段二
 */
class MoeSend {
public:
    // 初始化 (中文注释里有括号 "引号")
    __aicore__ inline void Init(GM_ADDR x) { x_ = x; }  // 行尾注释 }
    __aicore__ inline void SendCoreFunc(uint32_t rank)
    {
        for (uint32_t i = 0; i < SEND_BLOCK; ++i) { /* 循环体 { */
            Send(rank, i); // 发送
        }
        Log("发送完成 {rank}"); // 字符串里的中文
    }
private:
    GM_ADDR x_;
};
