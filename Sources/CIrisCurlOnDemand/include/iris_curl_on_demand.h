// CIrisCurlOnDemand declares nothing of its own: it defines the libcurl functions that
// FoundationNetworking calls, each opening libcurl on its first call (lazy_curl.c, written by
// scripts/make-lazy-codec-stubs), so that the `iris` tool does not load libcurl and its 29
// libraries at every start.
