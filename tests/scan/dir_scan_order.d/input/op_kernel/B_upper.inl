void BUpper() {}
