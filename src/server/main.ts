/** The service's entry point. The HTTP service is being built (issue 5); until it lands this only says so. */
console.log("storedb: the HTTP server is not built yet; the engine is available as a library (see README).");
