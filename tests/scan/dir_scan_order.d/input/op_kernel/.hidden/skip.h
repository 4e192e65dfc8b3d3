void Hidden() {}
