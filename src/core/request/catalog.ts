// Every diagnostic Promptwright reports, by a short stable name: the `code` users see in the Problems
// panel and in `promptwright check`, each explained in RULES.md under a heading of the same name (a unit
// test keeps the two in step). The spec sections behind each rule are cited in the code that checks it.

export type Severity = 'error' | 'warning' | 'info' | 'hint';

interface RuleInfo {
  severity: Severity;
  /** one line, for listings */
  summary: string;
}

export const RULES = {
  // ---- reading the file ----------------------------------------------------------------------------------
  'empty-file': { severity: 'error', summary: 'The file is empty.' },
  'not-an-object': { severity: 'error', summary: 'The file does not hold one JSON/YAML object.' },
  'json-syntax': { severity: 'error', summary: 'The file is not valid JSON.' },
  'json-comment': { severity: 'error', summary: 'A comment in a JSON request file.' },
  'json-trailing-comma': { severity: 'error', summary: 'A trailing comma in a JSON request file.' },
  'duplicate-key': { severity: 'warning', summary: 'The same key twice in one object (the last one counts).' },
  'yaml-syntax': { severity: 'error', summary: 'The file is not valid YAML.' },
  'yaml-multiple-documents': { severity: 'error', summary: 'More than one YAML document in a request file.' },
  'yaml-alias': { severity: 'error', summary: 'YAML aliases that expand to an enormous request.' },
  'nesting-depth': { severity: 'warning', summary: 'Values nested deeper than Promptwright reads (512 levels).' },
  'invalid-utf8': { severity: 'error', summary: 'The file is not UTF-8 text.' },
  'lone-surrogate': { severity: 'error', summary: 'A string holds half of a UTF-16 surrogate pair.' },
  'internal-error': { severity: 'warning', summary: 'Promptwright failed while checking the file.' },
  'other-tool-file': { severity: 'info', summary: "Another tool's prompt file (GitHub Models, Prompty), not a body." },
  // ---- the shape of the body (the zod schema) ----------------------------------------------------------
  'missing-field': { severity: 'error', summary: 'A required field is absent.' },
  'wrong-type': { severity: 'error', summary: 'A value of the wrong JSON type.' },
  'invalid-value': { severity: 'error', summary: 'A value outside the set the spec allows.' },
  'out-of-range': { severity: 'error', summary: 'A number, list or text outside its bounds.' },
  'empty-messages': { severity: 'error', summary: 'No messages at all.' },
  'too-many-messages': { severity: 'error', summary: 'More than 100,000 messages.' },
  'unknown-type': { severity: 'error', summary: 'A block, tool or source `type` the service does not know.' },
  'unknown-field': { severity: 'warning', summary: 'A field the spec does not describe.' },
  'foreign-field': { severity: 'error', summary: 'A field of another API (OpenAI, SDK options).' },
  'extra-field-in-block': { severity: 'error', summary: 'A field a content block does not have.' },
  'unknown-value': { severity: 'warning', summary: 'A value the spec does not list for an open field.' },
  'beta-feature': { severity: 'warning', summary: 'A field or block that needs a beta header.' },
  'outside-spec': { severity: 'warning', summary: 'A type the public SDKs know but the spec does not describe.' },
  // ---- models -------------------------------------------------------------------------------------------
  'retired-model': { severity: 'error', summary: 'The model is retired: requests to it fail.' },
  'deprecated-model': { severity: 'warning', summary: 'The model is deprecated, with a retirement date.' },
  'unknown-model': { severity: 'info', summary: 'A model id the spec does not list.' },
  'dated-model': { severity: 'hint', summary: 'A dated model id checked with its model’s rules.' },
  // ---- messages and content -------------------------------------------------------------------------------
  'consecutive-roles': { severity: 'warning', summary: 'Two turns of the same role in a row.' },
  'empty-message-content': { severity: 'error', summary: 'A message with an empty list of blocks.' },
  'empty-text-block': { severity: 'error', summary: 'An empty text block, or empty string content.' },
  'whitespace-text-block': { severity: 'error', summary: 'A text block, or string content, of whitespace only.' },
  'assistant-whitespace-text': {
    severity: 'warning',
    summary: 'Blank text block in an earlier assistant turn.',
  },
  'prefill-unsupported': { severity: 'error', summary: 'An assistant prefill on a model without prefill.' },
  'prefill-trailing-whitespace': { severity: 'error', summary: 'A prefill that ends with whitespace.' },
  'orphan-tool-result': { severity: 'error', summary: 'A tool_result without its tool_use in the turn before.' },
  'tool-use-without-result': { severity: 'error', summary: 'A tool_use not answered in the next user turn.' },
  'tool-result-not-first': {
    severity: 'error',
    summary: 'Content before the tool_result blocks of a user turn.',
  },
  'duplicate-tool-use-id': { severity: 'error', summary: 'Two tool_use blocks with the same id.' },
  'tool-use-id-pattern': { severity: 'error', summary: 'A tool_use id with characters the service refuses.' },
  'tool-use-name-too-long': { severity: 'error', summary: 'A tool_use name over 200 characters in the history.' },
  'orphan-server-tool-result': { severity: 'warning', summary: 'A server tool result without its call.' },
  'citation-block-range': { severity: 'error', summary: 'A citation whose end block is not after its start.' },
  // ---- prompt caching -------------------------------------------------------------------------------------
  'nested-cache-control': { severity: 'error', summary: 'cache_control on a nested block where it is refused.' },
  'too-many-cache-breakpoints': { severity: 'error', summary: 'More than 4 blocks with cache_control.' },
  'cache-ttl-order': { severity: 'error', summary: 'A ttl "1h" breakpoint after a 5-minute one.' },
  'cache-control-on-empty-text': { severity: 'error', summary: 'cache_control on an empty text block.' },
  'thinking-cache-control': { severity: 'error', summary: 'cache_control on a thinking block.' },
  'cache-prefix-below-minimum': {
    severity: 'warning',
    summary: "A breakpoint's prefix under the model's minimum: nothing is cached.",
  },
  // ---- effort, thinking, sampling ------------------------------------------------------------------------
  'effort-unsupported': { severity: 'error', summary: 'Effort on a model without effort.' },
  'effort-unavailable': { severity: 'error', summary: 'An effort level the model does not offer.' },
  'effort-max-tokens': { severity: 'info', summary: 'xhigh/max effort with a small max_tokens.' },
  'thinking-disabled-rejected': { severity: 'error', summary: 'thinking disabled on a model that refuses it.' },
  'manual-thinking-unsupported': { severity: 'error', summary: 'budget_tokens thinking on an adaptive-only model.' },
  'budget-tokens-deprecated': { severity: 'warning', summary: 'budget_tokens thinking where it is deprecated.' },
  'manual-thinking-expected': { severity: 'error', summary: 'Adaptive thinking on a manual-thinking model.' },
  'thinking-unsupported': { severity: 'error', summary: "Thinking on a model the service's list says cannot." },
  'budget-tokens-below-minimum': { severity: 'error', summary: 'A thinking budget below 1024 tokens.' },
  'budget-exceeds-max-tokens': { severity: 'error', summary: 'A thinking budget not below max_tokens.' },
  'thinking-with-temperature': { severity: 'error', summary: 'A temperature other than 1 with manual thinking.' },
  'thinking-with-top-k': { severity: 'error', summary: 'top_k with manual thinking.' },
  'thinking-with-forced-tool-choice': { severity: 'error', summary: 'Thinking with a forced tool_choice.' },
  'thinking-not-first-block': { severity: 'error', summary: 'Thinking blocks in a message that starts otherwise.' },
  'thinking-as-final-block': { severity: 'error', summary: 'A final assistant message that ends with thinking.' },
  'thinking-blocks-without-thinking': {
    severity: 'error',
    summary: 'Thinking in a prefill, thinking off.',
  },
  'tool-turn-without-thinking': {
    severity: 'error',
    summary: 'A tool-calling turn without its thinking.',
  },
  'clear-thinking-without-thinking': { severity: 'error', summary: 'The clear_thinking edit, thinking off.' },
  'top-p-with-thinking': { severity: 'error', summary: 'top_p outside 0.95–1 with extended thinking.' },
  'temperature-with-top-p': { severity: 'error', summary: 'temperature and top_p together where refused.' },
  'temperature-out-of-range': { severity: 'error', summary: 'temperature outside 0–1.' },
  'top-p-out-of-range': { severity: 'error', summary: 'top_p outside 0–1.' },
  'temperature-deprecated': { severity: 'error', summary: 'A temperature other than 1 where it is deprecated.' },
  'top-p-deprecated': { severity: 'error', summary: 'top_p where it is deprecated.' },
  'top-k-deprecated': { severity: 'error', summary: 'top_k where it is deprecated.' },
  'sampling-unsupported': { severity: 'warning', summary: 'A sampling setting newer models are reported to refuse.' },
  'sampling-minus-one': { severity: 'warning', summary: 'top_k or top_p of -1 (or a negative top_k).' },
  'speed-unsupported': { severity: 'error', summary: 'speed "fast" on a model without fast mode.' },
  'max-tokens-above-model-limit': { severity: 'error', summary: 'max_tokens above what the model generates.' },
  'max-tokens-zero': { severity: 'info', summary: 'max_tokens 0 only fills the prompt cache.' },
  // ---- images and documents -------------------------------------------------------------------------------
  'image-empty-data': { severity: 'error', summary: 'An image whose base64 data is empty.' },
  'image-invalid-base64': { severity: 'error', summary: 'An image whose data is not base64.' },
  'image-media-type-mismatch': { severity: 'error', summary: 'An image whose data is not its media_type.' },
  'unknown-media-format': { severity: 'warning', summary: 'Image or PDF data of an unknown format.' },
  'image-too-large-bytes': { severity: 'error', summary: 'An image over 5 MB.' },
  'image-dimensions-too-large': { severity: 'error', summary: 'An image over 8000 pixels on a side.' },
  'image-dimensions-many-images': {
    severity: 'error',
    summary: 'A side over 2000 px in a 21+ image request.',
  },
  'pdf-too-many-pages': { severity: 'error', summary: 'A PDF of more than 100 pages.' },
  'too-much-media': { severity: 'error', summary: 'Over 100 images and PDF pages in a request.' },
  'media-input-unsupported': { severity: 'warning', summary: 'Images or PDFs to a model the list says takes none.' },
  // ---- tools ----------------------------------------------------------------------------------------------
  'duplicate-tool-name': { severity: 'error', summary: 'Two tools with the same name.' },
  'tool-name-pattern': { severity: 'error', summary: 'A tool name with characters the service refuses.' },
  'tool-input-schema-invalid': { severity: 'error', summary: 'A tool input_schema that is not a JSON Schema.' },
  'input-schema-combinator': {
    severity: 'error',
    summary: 'oneOf, allOf or anyOf at the top of input_schema.',
  },
  'strict-schema-not-closed': {
    severity: 'error',
    summary: "An object of a strict tool's schema left open.",
  },
  'strict-tools-too-many': { severity: 'error', summary: 'More than 20 strict tools in one request.' },
  'exclusive-domains': { severity: 'error', summary: 'allowed_domains and blocked_domains together.' },
  'web-search-empty-domain-list': { severity: 'error', summary: 'An empty blocked_domains list on web search.' },
  'country-code': { severity: 'error', summary: 'user_location.country is not a two-letter code.' },
  'time-zone': { severity: 'warning', summary: 'user_location.timezone is not a known IANA zone.' },
  // ---- structured outputs ---------------------------------------------------------------------------------
  'output-schema-not-closed': { severity: 'error', summary: 'An output object schema left open.' },
  'output-schema-oneof': { severity: 'error', summary: 'oneOf in an output schema.' },
  'output-schema-max-items': { severity: 'error', summary: 'maxItems in an output schema.' },
  // ---- strict schemas: what the grammar compiler takes (structured outputs and strict tools) -----------------
  'strict-schema-keyword': {
    severity: 'error',
    summary: 'A bound strict schemas refuse (minimum, minLength, …).',
  },
  'strict-schema-recursive': { severity: 'error', summary: 'A $ref that refers back to itself in a strict schema.' },
  'strict-schema-boolean': { severity: 'error', summary: 'A boolean true subschema in a strict schema.' },
  'strict-schema-too-many-optional': {
    severity: 'error',
    summary: 'Over 24 optional strict parameters.',
  },
  'strict-schema-too-many-unions': {
    severity: 'error',
    summary: 'Over 16 strict union parameters.',
  },
  // ---- other fields ---------------------------------------------------------------------------------------
  'user-id-email': { severity: 'error', summary: 'metadata.user_id looks like an e-mail address.' },
  'stop-sequence-empty': { severity: 'error', summary: 'An empty stop sequence.' },
  'stop-sequence-whitespace': { severity: 'error', summary: 'A stop sequence of whitespace only.' },
  'cache-diagnosis-beta': { severity: 'info', summary: 'diagnostics without the cache-diagnosis beta.' },
  'retired-1m-beta': { severity: 'warning', summary: 'The retired 1M-context beta on a 200k model.' },
  // ---- case files (*.cases.yaml, *.cases.json; src/core/cases) -------------------------------------------
  'case-missing-field': { severity: 'error', summary: 'A case file or a case lacks a required field.' },
  'case-wrong-type': { severity: 'error', summary: 'A value of the wrong type in a case file.' },
  'case-invalid-value': {
    severity: 'error',
    summary: 'An empty text or list, or a number out of range, in a case file.',
  },
  'case-unknown-field': { severity: 'warning', summary: 'A key a case file does not have (it is ignored).' },
  'duplicate-case-name': { severity: 'error', summary: 'Two cases with the same name.' },
  'unknown-assertion': { severity: 'error', summary: 'An assertion kind Promptwright does not know.' },
  'assertion-keys': { severity: 'error', summary: 'An assertion with no key, or more than one.' },
  'invalid-regex': { severity: 'error', summary: 'A regex assertion whose pattern does not compile.' },
  'unknown-stop-reason': { severity: 'warning', summary: 'A stop_reason assertion the spec does not list.' },
  'request-not-found': { severity: 'error', summary: 'The request file a case file names cannot be read.' },
  'path-outside-repository': { severity: 'error', summary: 'A case file names a file outside its repository.' },
  'min-pass-over-repeat': { severity: 'error', summary: 'min-pass asks for more samples than repeat runs.' },
  'case-without-assertions': { severity: 'warning', summary: 'A case with no assertions: nothing checks its reply.' },
  'judge-prompt-not-found': { severity: 'error', summary: 'The judge prompt file a case file names cannot be read.' },
  'judge-prompt-placeholder': { severity: 'error', summary: 'A judge prompt with a wrong or missing placeholder.' },
  'undefined-placeholder': { severity: 'error', summary: 'A {{placeholder}} some case gives no value.' },
  'unused-var': { severity: 'warning', summary: 'A case value no {{placeholder}} of the request uses.' },
  'tool-answer-missing': {
    severity: 'error',
    summary: 'A tool entry with no result, mcp or simulate, or two of them.',
  },
  'unknown-tool': { severity: 'error', summary: 'An answer for a tool the request does not define.' },
  'unknown-mcp-server': { severity: 'warning', summary: 'An mcp answer naming a server no configuration defines.' },
  'dataset-not-found': { severity: 'error', summary: 'The dataset a case file names cannot be read.' },
  'dataset-syntax': {
    severity: 'error',
    summary: 'A dataset that cannot be read: a ragged row, a bad quote, not JSON.',
  },
  'dataset-row': { severity: 'error', summary: 'A dataset row that cannot be a case.' },
  'unused-column': { severity: 'warning', summary: 'A dataset column no {{placeholder}} uses, or one not read.' },
} as const satisfies Record<string, RuleInfo>;

export type RuleId = keyof typeof RULES;

/** Where each rule is explained (RULES.md, one heading per rule). */
const RULES_URL = 'https://github.com/promptwright/promptwright/blob/main/RULES.md';

export function ruleUrl(id: RuleId): string {
  return `${RULES_URL}#${id}`;
}
