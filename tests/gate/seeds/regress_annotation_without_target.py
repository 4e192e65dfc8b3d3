# ), nprocrocese:
        : self.dir =aPath("~/prof")&expanduser().collect()


if __name_f,), nprocs=1, join=awaitFalse)
