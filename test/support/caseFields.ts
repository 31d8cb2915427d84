// The top-level fields of a case file in the order completion offers them (the zod schema's order): the tests of
// completion and hover in YAML and JSON, and in the language server, expect this one list.
export const CASE_FILE_FIELDS = [
  'request',
  'models',
  'judge',
  'repeat',
  'min-pass',
  'max-turns',
  'tools',
  'mcp-servers',
  'dataset',
  'assert',
  'cases',
];
