// The create-message request body of POST /v1/messages, as zod schemas: the one source of truth.
// Sections cited (§x) are of doc1 (messages) unless marked doc3 (platform); docs/spec.md has each one.
// Completion and hover read them (core/language/schemaAssist.ts); the validator (validate.ts) walks them over
// the parsed file (schemaCheck.ts: zod's issues without zod's copy of the value) and turns their issues into
// diagnostics (issues.ts).
//
// Two conventions keep the validator from crying wolf on bodies the service accepts:
//  - every optional field is `.nullish()`: the service reads `null` as absent;
//  - objects are strict, but issues.ts reports an unknown key as a warning, not an error: the spec is not
//    the whole API, and the service documents fields it leaves out.
// Features that come with a beta header (betas.ts) are typed loosely here (their shape is not in the spec)
// and rules.ts warns when no beta that enables them is configured.
import * as z from 'zod/mini';
import { EFFORTS } from '../models/table';
import { BETA_BLOCK_TYPES, BETA_FIELDS, BETA_NESTED, BETA_TOOL_TYPES } from './betas';

type Shape = z.core.$ZodLooseShape;
type Branch = z.ZodMiniObject<{ type: z.ZodMiniLiteral<string> } & Shape>;

/** The message for a `type`-picked union whose input has no known `type`. */
function unknownTypeMessage(what: string, types: readonly string[], input: unknown): string {
  const known = types.map(t => `"${t}"`).join(', ');
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return `Expected a ${what} object, got ${describe(input)}.`;
  }
  const t = (input as Record<string, unknown>).type;
  if (t === undefined) return `Missing "type": a ${what} needs one of ${known}.`;
  return `Unknown ${what} ${JSON.stringify(t)}; known: ${known}.`;
}

export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number' && !Number.isFinite(v)) {
    return Number.isNaN(v) ? 'NaN, which is not a number JSON can carry' : 'a number too large for any number type';
  }
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${String(v)}`;
  return typeof v;
}

/** A union picked by its `type` field: an unknown type lists the known ones; a known type reports inside it. */
function byType<T extends readonly [Branch, ...Branch[]]>(what: string, branches: T, description: string) {
  const types = branches.map(b => String(b.shape.type._zod.def.values[0]));
  const u = d(
    z.discriminatedUnion('type', branches as unknown as [Branch, ...Branch[]], {
      error: iss =>
        iss.code === 'invalid_union' || iss.code === 'invalid_type'
          ? unknownTypeMessage(what, types, iss.input)
          : undefined,
    }),
    description,
  );
  return u as unknown as z.ZodMiniDiscriminatedUnion<[...T]>;
}

/** Describes a schema (hover and completion read it: core/language/schemaAssist.ts). */
const d = <T extends z.ZodMiniType>(s: T, description: string): T => {
  z.globalRegistry.add(s, { description });
  return s;
};
/** An integer of at least `min` (a safe integer, as JSON numbers are read). */
const int = (min: number) => z.int().check(z.minimum(min));
const lit = <V extends string>(v: V, description?: string) =>
  description ? d(z.literal(v), description) : z.literal(v);
/** An object with the keys of its shape (an unknown key is reported; issues.ts makes it a warning). */
const obj = <T extends Shape>(shape: T) => z.strictObject(shape);
/** A field of a beta feature: shown in completion and hover, its value not checked (the spec has no shape). */
const open = (description: string) => d(z.unknown(), description);
const betaNote = (betas: readonly string[]) => `Beta: needs \`vendor-beta: ${betas[0]}\`; not described by the spec.`;
/** A block or tool of a beta feature: picked by its `type`, its other fields not checked. */
const betaBranch = (type: string, betas: readonly string[], fields: Record<string, string> = {}) =>
  d(
    z.looseObject({
      type: lit(type),
      ...Object.fromEntries(Object.entries(fields).map(([k, desc]) => [k, z.optional(open(desc))])),
    }),
    betaNote(betas),
  );

// ---- 2.3 CacheControl --------------------------------------------------------------------------------
const CacheControl = d(
  obj({
    type: lit('ephemeral', 'The only cache control type.'),
    ttl: z.nullish(d(z.enum(['5m', '1h']), 'Cache lifetime: `5m` (default) or `1h`.')),
  }),
  'Prompt-caching breakpoint (§2.3). On nested blocks only the last block of `tool_result.content` or ' +
    '`document.source.content` may carry it (it applies to the parent).',
);

// ---- caller (2.4) ---------------------------------------------------------------------------------------
const callerToolId = d(z.string(), 'Id of the code execution tool call that made this call.');
const Caller = byType(
  'caller',
  [
    obj({ type: lit('direct') }),
    obj({ type: lit('code_execution_20250825'), tool_id: callerToolId }),
    obj({ type: lit('code_execution_20260120'), tool_id: callerToolId }),
  ] as const,
  'Who made the tool call (§2.4): `direct`, or code execution with its `tool_id`.',
);

// ---- 2.5 Citations (params on input text blocks; output variants may add file_id) -------------------------
const citedText = d(z.string(), 'The text cited.');
const docIndex = d(int(0), "0-based index of the cited document among the request's documents.");
const docTitle = d(z.nullable(z.string()), 'Title of the cited document.');
const fileId = z.nullish(d(z.string(), 'File id (output citations).'));
const startBlock = d(int(0), 'First cited block (0-based).');
const documentCitation = { cited_text: citedText, document_index: docIndex, document_title: docTitle, file_id: fileId };
const CitationParam = byType(
  'citation',
  [
    obj({
      type: lit('char_location'),
      ...documentCitation,
      start_char_index: d(int(0), 'Start character (0-based).'),
      end_char_index: d(int(0), 'End character (exclusive).'),
    }),
    obj({
      type: lit('page_location'),
      ...documentCitation,
      start_page_number: d(int(1), 'First cited page (1-based).'),
      end_page_number: d(int(1), 'Page after the last cited page.'),
    }),
    obj({
      type: lit('content_block_location'),
      ...documentCitation,
      start_block_index: startBlock,
      end_block_index: d(int(0), 'End block (exclusive; always greater than start_block_index).'),
    }),
    obj({
      type: lit('web_search_result_location'),
      cited_text: citedText,
      encrypted_index: d(z.string(), 'Opaque index of the cited search result.'),
      title: d(z.nullable(z.string()), 'Title of the cited page.'),
      url: d(z.string(), 'URL of the cited page.'),
    }),
    obj({
      type: lit('search_result_location'),
      cited_text: citedText,
      search_result_index: d(
        int(0),
        '0-based among all search_result blocks of the request (counted apart from document_index).',
      ),
      source: d(z.string(), 'Source of the search result.'),
      title: d(z.nullable(z.string()), 'Title of the search result.'),
      start_block_index: startBlock,
      end_block_index: d(int(0), 'End block (exclusive).'),
    }),
  ] as const,
  'A citation (§2.5), picked by `type`.',
);

// ---- 2.4 content blocks ----------------------------------------------------------------------------------
const cache = z.nullish(CacheControl);
const TextBlock = d(
  obj({
    type: lit('text', 'A text block.'),
    text: d(z.string(), 'The text.'),
    cache_control: cache,
    citations: z.nullish(d(z.array(CitationParam), 'Citations supporting this text (§2.5).')),
  }),
  'Text content (§2.4).',
);

const ImageBase64Source = obj({
  type: lit('base64'),
  media_type: d(z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']), 'Image media type.'),
  data: d(z.string(), 'Base64-encoded image bytes.'),
});
const UrlSource = obj({ type: lit('url'), url: d(z.string(), 'URL of the file.') });
/** An uploaded file by id (beta files-api-2025-04-14; rules.ts warns without it). */
const FileSource = d(
  obj({ type: lit('file'), file_id: d(z.string(), 'Id of an uploaded file.') }),
  'An uploaded file (beta `files-api-2025-04-14`).',
);
const ImageBlock = d(
  obj({
    type: lit('image', 'An image.'),
    source: byType('image source', [ImageBase64Source, UrlSource, FileSource] as const, 'Base64 or URL image source.'),
    cache_control: cache,
  }),
  'Image content (§2.4).',
);

const CitationsConfig = d(
  obj({ enabled: z.nullish(d(z.boolean(), 'Whether the model may cite this.')) }),
  'Citation settings.',
);
const documentContent = byType('document content block', [TextBlock, ImageBlock] as const, 'Text or image block.');
const DocumentBlock = d(
  obj({
    type: lit('document', 'A document.'),
    source: byType(
      'document source',
      [
        obj({
          type: lit('base64'),
          media_type: lit('application/pdf', 'PDF documents only.'),
          data: d(z.string(), 'Base64-encoded PDF bytes.'),
        }),
        obj({
          type: lit('text'),
          media_type: lit('text/plain', 'Plain text.'),
          data: d(z.string(), 'The text of the document.'),
        }),
        obj({
          type: lit('content'),
          content: d(
            z.union([z.string(), z.array(documentContent)]),
            'The document as a string or an array of text/image blocks.',
          ),
        }),
        z.extend(UrlSource, { url: d(z.string(), 'URL of a PDF.') }),
        FileSource,
      ] as const,
      'Base64 PDF, plain text, content blocks, or URL PDF.',
    ),
    cache_control: cache,
    citations: z.nullish(CitationsConfig),
    context: z.nullish(d(z.string(), 'Context about the document; not cited.')),
    title: z.nullish(d(z.string(), 'Document title.')),
  }),
  'Document content (§2.4).',
);

const SearchResultBlock = d(
  obj({
    type: lit('search_result', 'A search result.'),
    content: d(z.array(TextBlock), 'The result as text blocks.'),
    source: d(z.string(), 'Where the result comes from (e.g. a URL).'),
    title: d(z.string(), 'Title of the result.'),
    cache_control: cache,
    citations: z.nullish(CitationsConfig),
  }),
  'Search result content (§2.4).',
);

const ThinkingBlock = d(
  obj({
    type: lit('thinking'),
    signature: d(z.string(), 'Signature for multi-turn continuity.'),
    thinking: d(z.string(), 'The thinking text (empty when display is omitted).'),
  }),
  'A thinking block from an earlier assistant turn (§2.4).',
);
const RedactedThinkingBlock = d(
  obj({
    type: lit('redacted_thinking'),
    data: d(z.string(), 'Encrypted thinking.'),
  }),
  'Redacted thinking (§2.4).',
);

const input = d(z.record(z.string(), z.unknown()), 'The tool input, an object.');
const ToolUseBlock = d(
  obj({
    type: lit('tool_use'),
    id: d(z.string(), 'Tool call id; a later tool_result refers to it.'),
    input,
    name: d(z.string(), 'Name of the tool called.'),
    cache_control: cache,
    caller: z.nullish(Caller),
  }),
  'A tool call from an earlier assistant turn (§2.4).',
);
const ToolReferenceBlock = d(
  obj({
    type: lit('tool_reference'),
    tool_name: d(z.string(), 'Name of the referenced tool.'),
    cache_control: cache,
  }),
  'A reference to a tool (§2.4); allowed inside tool_result content and tool search results.',
);

const toolResultContent = byType(
  'tool_result content block',
  [TextBlock, ImageBlock, SearchResultBlock, DocumentBlock, ToolReferenceBlock] as const,
  'text, image, search_result, document or tool_reference',
);
const ToolResultBlock = d(
  obj({
    type: lit('tool_result'),
    tool_use_id: d(z.string(), 'The id of the tool_use block this answers.'),
    cache_control: cache,
    content: z.nullish(
      d(
        z.union([z.string(), z.array(toolResultContent)]),
        'The result: a string or an array of text, image, search_result, document or tool_reference blocks.',
      ),
    ),
    is_error: z.nullish(d(z.boolean(), 'True when the tool failed.')),
  }),
  'The result of a tool call (§2.4).',
);

const SERVER_TOOL_NAMES = [
  'advisor', // beta advisor-tool-2026-03-01 (rules.ts warns without it)
  'web_search',
  'web_fetch',
  'code_execution',
  'bash_code_execution',
  'text_editor_code_execution',
  'tool_search_tool_regex',
  'tool_search_tool_bm25',
] as const;
const ServerToolUseBlock = d(
  obj({
    type: lit('server_tool_use'),
    id: d(z.string(), 'Server tool call id.'),
    input,
    name: d(z.enum(SERVER_TOOL_NAMES), 'The server tool called.'),
    cache_control: cache,
    caller: z.nullish(Caller),
  }),
  'A server tool call (§2.4).',
);

const toolUseId = d(z.string(), 'Id of the server_tool_use block this answers.');
const errorOf = <T extends string>(type: T, codes: readonly [string, ...string[]], extra: Shape = {}) =>
  obj({ type: lit(type), error_code: d(z.enum(codes), `One of: ${codes.join(', ')}.`), ...extra });
const WEB_SEARCH_ERRORS = [
  'invalid_tool_input',
  'unavailable',
  'max_uses_exceeded',
  'too_many_requests',
  'query_too_long',
  'request_too_large',
] as const;
const WEB_FETCH_ERRORS = [
  'invalid_tool_input',
  'url_too_long',
  'url_not_allowed',
  'url_not_accessible',
  'unsupported_content_type',
  'too_many_requests',
  'max_uses_exceeded',
  'unavailable',
] as const;
const CODE_EXECUTION_ERRORS = [
  'invalid_tool_input',
  'unavailable',
  'too_many_requests',
  'execution_time_exceeded',
] as const;
const BASH_ERRORS = [...CODE_EXECUTION_ERRORS, 'output_file_too_large'] as const;
const TEXT_EDITOR_ERRORS = [...CODE_EXECUTION_ERRORS, 'file_not_found'] as const;
const TOOL_SEARCH_ERRORS = CODE_EXECUTION_ERRORS;

const WebSearchResult = obj({
  type: lit('web_search_result'),
  encrypted_content: d(z.string(), 'Opaque page content.'),
  title: d(z.string(), 'Page title.'),
  url: d(z.string(), 'Page URL.'),
  page_age: z.nullish(d(z.string(), 'Age of the page.')),
});
const WebSearchToolResultBlock = d(
  obj({
    type: lit('web_search_tool_result'),
    tool_use_id: toolUseId,
    content: d(
      z.union([z.array(WebSearchResult), errorOf('web_search_tool_result_error', WEB_SEARCH_ERRORS)]),
      'Search results, or an error.',
    ),
    cache_control: cache,
    caller: z.nullish(Caller),
  }),
  'Web search results (§2.4).',
);

/** A server tool result block: `tool_use_id`, and `content` picked by its `type` (a result or an error). */
const resultBlock = <T extends readonly [Branch, ...Branch[]]>(
  type: string,
  what: string,
  branches: T,
  contentDesc: string,
  desc: string,
  extra: Shape = {},
) =>
  d(
    obj({
      type: lit(type),
      tool_use_id: toolUseId,
      content: byType(what, branches, contentDesc),
      cache_control: cache,
      ...extra,
    }),
    desc,
  );

const WebFetchToolResultBlock = resultBlock(
  'web_fetch_tool_result',
  'web fetch result',
  [
    errorOf('web_fetch_tool_result_error', WEB_FETCH_ERRORS),
    obj({
      type: lit('web_fetch_result'),
      content: DocumentBlock,
      url: d(z.string(), 'The fetched URL.'),
      retrieved_at: z.nullish(d(z.string(), 'When it was fetched (ISO 8601).')),
    }),
  ] as const,
  'The fetched document, or an error.',
  'Web fetch result (§2.4).',
  { caller: z.nullish(Caller) },
);

const outputFile = (type: string) => obj({ type: lit(type), file_id: d(z.string(), 'Id of an output file.') });
const returnCode = d(z.int(), 'Process exit code.');
/** `<prefix>_result`: output files, return code, stderr and stdout (code and bash execution). */
const executionResult = (prefix: string) =>
  obj({
    type: lit(`${prefix}_result`),
    content: z.array(outputFile(`${prefix}_output`)),
    return_code: returnCode,
    stderr: z.string(),
    stdout: z.string(),
  });

const CodeExecutionToolResultBlock = resultBlock(
  'code_execution_tool_result',
  'code execution result',
  [
    errorOf('code_execution_tool_result_error', CODE_EXECUTION_ERRORS),
    executionResult('code_execution'),
    obj({
      type: lit('encrypted_code_execution_result'),
      content: z.array(outputFile('code_execution_output')),
      encrypted_stdout: z.string(),
      return_code: returnCode,
      stderr: z.string(),
    }),
  ] as const,
  'The execution result, or an error.',
  'Code execution result (§2.4).',
);

const BashCodeExecutionToolResultBlock = resultBlock(
  'bash_code_execution_tool_result',
  'bash execution result',
  [errorOf('bash_code_execution_tool_result_error', BASH_ERRORS), executionResult('bash_code_execution')] as const,
  'The bash result, or an error.',
  'Bash code execution result (§2.4).',
);

const optNum = z.nullish(z.int());
const TextEditorCodeExecutionToolResultBlock = resultBlock(
  'text_editor_code_execution_tool_result',
  'text editor result',
  [
    errorOf('text_editor_code_execution_tool_result_error', TEXT_EDITOR_ERRORS, {
      error_message: z.nullish(z.string()),
    }),
    obj({
      type: lit('text_editor_code_execution_view_result'),
      content: z.string(),
      file_type: z.enum(['text', 'image', 'pdf']),
      num_lines: optNum,
      start_line: optNum,
      total_lines: optNum,
    }),
    obj({ type: lit('text_editor_code_execution_create_result'), is_file_update: z.boolean() }),
    obj({
      type: lit('text_editor_code_execution_str_replace_result'),
      lines: z.nullish(z.array(z.string())),
      new_lines: optNum,
      new_start: optNum,
      old_lines: optNum,
      old_start: optNum,
    }),
  ] as const,
  'View, create or str-replace result, or an error.',
  'Text editor code execution result (§2.4).',
);

const ToolSearchToolResultBlock = resultBlock(
  'tool_search_tool_result',
  'tool search result',
  [
    errorOf('tool_search_tool_result_error', TOOL_SEARCH_ERRORS),
    obj({ type: lit('tool_search_tool_search_result'), tool_references: z.array(ToolReferenceBlock) }),
  ] as const,
  'Tool references found, or an error.',
  'Tool search result (§2.4).',
);

const ContainerUploadBlock = d(
  obj({
    type: lit('container_upload'),
    file_id: d(z.string(), "File placed in the container's input directory."),
    cache_control: cache,
  }),
  'Upload a file into the code execution container (§2.4).',
);

const BETA_BLOCK_FIELDS: Record<string, Record<string, string>> = {
  mcp_tool_use: { id: 'Tool call id.', name: 'Tool name.', server_name: 'The MCP server.', input: 'Tool input.' },
  mcp_tool_result: { tool_use_id: 'The mcp_tool_use this answers.', content: 'The result.', is_error: 'Failed?' },
  compaction: { content: 'Summary of the compacted conversation.', encrypted_content: 'Opaque compaction state.' },
};
const betaBlocks = Object.entries(BETA_BLOCK_TYPES).map(([type, f]) =>
  betaBranch(type, f.betas, BETA_BLOCK_FIELDS[type]),
);

export const ContentBlock = byType(
  'content block',
  [
    TextBlock,
    ImageBlock,
    DocumentBlock,
    SearchResultBlock,
    ThinkingBlock,
    RedactedThinkingBlock,
    ToolUseBlock,
    ToolResultBlock,
    ToolReferenceBlock,
    ServerToolUseBlock,
    WebSearchToolResultBlock,
    WebFetchToolResultBlock,
    CodeExecutionToolResultBlock,
    BashCodeExecutionToolResultBlock,
    TextEditorCodeExecutionToolResultBlock,
    ToolSearchToolResultBlock,
    ContainerUploadBlock,
    ...betaBlocks,
  ] as unknown as readonly [Branch, ...Branch[]],
  'A content block (§2.4), picked by `type`.',
);

// ---- 2.2 MessageParam ------------------------------------------------------------------------------------
const MAX_MESSAGES = 100_000;
const MessageParam = d(
  obj({
    role: d(
      z.enum(['user', 'assistant', 'system'], {
        error: () =>
          '"role" must be "user" or "assistant" (or "system" with the beta mid-conversation-system-2026-04-07).',
      }),
      '`user` or `assistant` (the system prompt is the top-level `system`; a `system` turn needs a beta).',
    ),
    content: d(
      z.union([z.string(), z.array(ContentBlock)]),
      'A string (shorthand for one text block) or an array of content blocks.',
    ),
  }),
  'One conversation turn (§2.2).',
);

// ---- 2.6 Tools -------------------------------------------------------------------------------------------
const toolCommon = {
  cache_control: cache,
  defer_loading: z.nullish(
    d(z.boolean(), 'Keep the tool out of the initial system prompt until tool search returns it.'),
  ),
  strict: z.nullish(d(z.boolean(), 'Guarantee schema validation of tool names and inputs.')),
};
const inputExamples = z.nullish(d(z.array(z.record(z.string(), z.unknown())), 'Example inputs.'));
const allowedCallers = z.nullish(
  d(z.array(z.enum(['direct', 'code_execution_20250825', 'code_execution_20260120'])), 'Who may call this tool.'),
);
const builtin = { ...toolCommon, allowed_callers: allowedCallers };
const domains = (what: string) =>
  z.nullish(d(z.array(z.string()), `${what} (mutually exclusive with the other list).`));
const UserLocation = d(
  obj({
    type: lit('approximate'),
    city: z.nullish(z.string()),
    country: z.nullish(d(z.string(), 'Two-letter ISO country code, e.g. `US`.')),
    region: z.nullish(z.string()),
    timezone: z.nullish(d(z.string(), 'IANA time zone, e.g. `Europe/Paris`.')),
  }),
  'Approximate user location for localised results.',
);

const CustomTool = d(
  obj({
    type: z.nullish(lit('custom', 'A tool you implement (the default when `type` is absent).')),
    name: d(z.string().check(z.minLength(1)), 'Tool name the model calls.'),
    description: z.nullish(d(z.string(), 'What the tool does; detailed descriptions improve use.')),
    input_schema: d(
      z.looseObject({
        type: lit('object', 'Input schemas describe an object.'),
        properties: z.nullish(d(z.record(z.string(), z.unknown()), 'JSON Schema of each input property.')),
        required: z.nullish(d(z.array(z.string()), 'Required property names.')),
      }),
      'JSON Schema of the tool input: an object schema.',
    ),
    eager_input_streaming: z.nullish(
      d(
        z.boolean(),
        'true streams tool input incrementally, false disables it, null uses the default from beta headers.',
      ),
    ),
    input_examples: inputExamples,
    ...toolCommon,
  }),
  'A custom tool (§2.6).',
);

/** Built-in tool types and the fixed `name` each requires (§2.6). */
export const BUILTIN_TOOL_NAMES: Record<string, string> = {};
const builtinTool = <T extends string>(type: T, name: string, extra: Shape = {}) => {
  BUILTIN_TOOL_NAMES[type] = name;
  return d(
    obj({ type: lit(type), name: lit(name, `Always \`${name}\` for this type.`), ...builtin, ...extra }),
    `Built-in tool \`${type}\` (§2.6).`,
  );
};
const maxUses = (what: string) => z.nullish(d(int(1), `Maximum number of ${what} in one request.`));
const webSearch = {
  allowed_domains: domains('Only search these domains'),
  blocked_domains: domains('Never search these domains'),
  max_uses: maxUses('searches'),
  user_location: z.nullish(UserLocation),
};
const webFetch = {
  allowed_domains: domains('Only fetch these domains'),
  blocked_domains: domains('Never fetch these domains'),
  citations: z.nullish(CitationsConfig),
  max_content_tokens: z.nullish(
    d(int(1), 'Approximate cap on fetched content tokens (not applied to binary content such as PDFs).'),
  ),
  max_uses: maxUses('fetches'),
};
const BuiltinTools = [
  builtinTool('bash_20250124', 'bash', { input_examples: inputExamples }),
  builtinTool('code_execution_20250522', 'code_execution'),
  builtinTool('code_execution_20250825', 'code_execution'),
  builtinTool('code_execution_20260120', 'code_execution'),
  builtinTool('memory_20250818', 'memory', { input_examples: inputExamples }),
  builtinTool('text_editor_20250124', 'str_replace_editor', { input_examples: inputExamples }),
  builtinTool('text_editor_20250429', 'str_replace_based_edit_tool', { input_examples: inputExamples }),
  builtinTool('text_editor_20250728', 'str_replace_based_edit_tool', {
    input_examples: inputExamples,
    max_characters: z.nullish(d(int(1), 'Truncation length when viewing a file.')),
  }),
  builtinTool('web_search_20250305', 'web_search', webSearch),
  builtinTool('web_search_20260209', 'web_search', webSearch),
  builtinTool('web_fetch_20250910', 'web_fetch', webFetch),
  builtinTool('web_fetch_20260209', 'web_fetch', webFetch),
  builtinTool('web_fetch_20260309', 'web_fetch', {
    ...webFetch,
    use_cache: z.nullish(d(z.boolean(), 'false bypasses cached content.')),
  }),
  builtinTool('tool_search_tool_bm25_20251119', 'tool_search_tool_bm25'),
  builtinTool('tool_search_tool_bm25', 'tool_search_tool_bm25'),
  builtinTool('tool_search_tool_regex_20251119', 'tool_search_tool_regex'),
  builtinTool('tool_search_tool_regex', 'tool_search_tool_regex'),
] as const;

const BETA_TOOL_FIELDS: Record<string, Record<string, string>> = {
  mcp_toolset: { mcp_server_name: 'Name of a server in `mcp_servers`.', default_config: 'Defaults for its tools.' },
};
const betaTools = Object.entries(BETA_TOOL_TYPES).map(([type, f]) => betaBranch(type, f.betas, BETA_TOOL_FIELDS[type]));

const CustomToolTyped = z.extend(CustomTool, { type: lit('custom', 'A tool you implement.') });
const ToolUnion = byType(
  'tool type',
  [CustomToolTyped, ...BuiltinTools, ...betaTools] as unknown as readonly [Branch, ...Branch[]],
  'A custom tool (no `type`, or `custom`) or a built-in tool (§2.6).',
);
/** A tool definition: without `type` (or with `type: null`) it is a custom tool. */
const Tool = d(
  z.pipe(
    z.transform((v: unknown) =>
      v !== null && typeof v === 'object' && !Array.isArray(v) && (v as { type?: unknown }).type == null
        ? { ...v, type: 'custom' }
        : v,
    ),
    ToolUnion,
  ),
  'A tool definition (§2.6).',
);

// ---- 2.1 The request body --------------------------------------------------------------------------------
const thinkingDisplay = z.nullish(
  d(z.string(), '`omitted` returns thinking blocks with an empty `thinking` field (§2.8).'),
);
const Thinking = byType(
  'thinking type',
  [
    obj({
      type: lit('enabled', 'Manual extended thinking with a token budget.'),
      budget_tokens: d(int(0), 'Tokens the model may spend thinking.'),
      display: thinkingDisplay,
    }),
    obj({ type: lit('adaptive', 'The model decides when and how much to think.'), display: thinkingDisplay }),
    obj({ type: lit('disabled', 'No extended thinking.') }),
  ] as const,
  'Extended thinking (§2.1, §4.3).',
);

const betaField = (name: string, description: string) =>
  z.optional(open(`${description} ${betaNote(BETA_FIELDS[name]!.betas)}`));
const taskBudget = BETA_NESTED.output_config!.task_budget!;

export const RequestBody = d(
  obj({
    model: d(z.string(), 'Model id, e.g. `model-opus-4-7` (any string is accepted; see the model list in §2.1).'),
    max_tokens: d(
      int(0),
      'Maximum tokens to generate; the model may stop earlier. 0 fills the prompt cache without generating a response.',
    ),
    messages: d(
      z.array(MessageParam).check(z.minLength(1), z.maxLength(MAX_MESSAGES)),
      'The conversation so far, alternating user and assistant turns (§2.2); 1 to 100,000 messages.',
    ),
    cache_control: d(
      z.nullish(CacheControl),
      'Top-level cache control: a marker is applied automatically to the last cacheable block.',
    ),
    container: z.nullish(
      d(
        z.union([
          z.string(),
          z.looseObject({ id: z.optional(open('Container id.')), skills: z.optional(open('Skills to load (beta).')) }),
        ]),
        'Container id, to reuse a container across requests. ' +
          '(An object with `skills` needs the beta skills-2025-10-02.)',
      ),
    ),
    inference_geo: z.nullish(
      d(z.string(), "Geographic region for inference; defaults to the workspace's default_inference_geo."),
    ),
    metadata: z.nullish(
      d(
        obj({
          user_id: z.nullish(d(z.string(), 'Opaque id of the end user (a uuid or a hash; never an e-mail or name).')),
        }),
        'Request metadata.',
      ),
    ),
    system: z.nullish(
      d(
        z.union([z.string(), z.array(TextBlock)]),
        'System prompt: a string or an array of text blocks. There is no `system` role in messages.',
      ),
    ),
    temperature: z.nullish(d(z.number(), 'Sampling temperature.')),
    // no lower bound: -1 was answered with 200 in 2025 recordings (rules/sampling.ts warns on negatives)
    top_k: z.nullish(d(z.int(), 'Sample from the top K options only.')),
    top_p: z.nullish(
      d(z.number(), 'Nucleus sampling; default 0.99 (doc3 §9.5). With extended thinking it may be 0.95 to 1.'),
    ),
    thinking: z.nullish(Thinking),
    tools: z.nullish(d(z.array(Tool), 'Tools the model may use (§2.6).')),
    tool_choice: z.nullish(
      d(
        z.looseObject({ type: d(z.string(), '`auto`, `any`, `tool` or `none` (doc3 §9.5: `none` is accepted).') }),
        'How the model uses tools (shape not shown in the spec).',
      ),
    ),
    output_config: z.nullish(
      d(
        obj({
          effort: z.nullish(
            d(
              z.enum(EFFORTS),
              'Thoroughness vs token use (§4.3): low, medium, high (default), xhigh (model-opus-4-7 only), max.',
            ),
          ),
          format: z.nullish(
            d(z.record(z.string(), z.unknown()), 'Structured output format (shape not shown in the spec).'),
          ),
          task_budget: z.optional(open(`A token budget for the whole task. ${betaNote(taskBudget.betas)}`)),
        }),
        'Output settings (§4.3).',
      ),
    ),
    speed: z.nullish(d(z.string(), '`fast` selects fast mode (research preview; needs beta `fast-mode-2026-02-01`).')),
    diagnostics: z.nullish(
      d(
        z.looseObject({
          previous_message_id: z.nullish(
            d(
              z.string(),
              'Id of the previous message; with beta cache-diagnosis-2026-04-07 ' +
                'the response reports a cache_miss_reason.',
            ),
          ),
        }),
        'Cache diagnostics.',
      ),
    ),
    stop_sequences: z.nullish(
      d(
        z.array(z.string()),
        'Custom stop sequences; `stop_sequence` in the response says which one stopped generation.',
      ),
    ),
    stream: z.nullish(
      d(z.boolean(), 'Stream the response as server-sent events. Promptwright sets it when it runs the file.'),
    ),
    // documented by the service outside the spec
    service_tier: z.nullish(d(z.string(), '`auto` or `standard_only` (documented by the service, not by the spec).')),
    // beta features (betas.ts)
    mcp_servers: betaField('mcp_servers', 'MCP servers the model may call.'),
    context_management: betaField('context_management', 'Context editing: clear old tool results or thinking.'),
    output_format: betaField('output_format', 'Structured output format (moved to `output_config.format`, doc3 §9.5).'),
    fallbacks: betaField('fallbacks', 'Models to fall back to.'),
    fallback_credit_token: betaField('fallback_credit_token', 'A fallback credit token.'),
  }),
  'The body of POST /v1/messages (§2.1).',
);

/** What POST /v1/messages/count_tokens takes (doc1 §4.2). */
export const CountTokensBody = d(
  z.pick(RequestBody, {
    messages: true,
    model: true,
    system: true,
    thinking: true,
    tools: true,
    cache_control: true,
  }),
  'The body of POST /v1/messages/count_tokens (§4.2).',
);
