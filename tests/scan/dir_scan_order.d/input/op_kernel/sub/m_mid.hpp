void MMid() {}
