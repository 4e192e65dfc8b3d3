void ZLast() {}
