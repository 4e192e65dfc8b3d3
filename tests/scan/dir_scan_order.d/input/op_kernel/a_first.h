void AFirst() {}
