// Exists only to own the precompiled header that every test reuses.
int main()
{
    return 0;
}
