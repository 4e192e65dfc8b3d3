void f() {}
