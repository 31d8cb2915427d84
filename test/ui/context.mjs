// Shared state between the harness (test/harness/run.mjs) and the UI suites: the code-server base URL,
// the fake service, helpers. Filled in by the harness before the suites load.
export const ui = {};
