// Request features that come with a beta header (`vendor-beta`) and that the spec names without
// describing them: doc3 §9.2 lists the beta values, doc1 only the GA fields. A request file cannot show
// the headers the user's code sends, so using one of these is never an error by itself: Promptwright
// warns when none of the betas that enable it is in `promptwright.betas` (PROMPTWRIGHT_BETAS in the CLI)
// and says nothing when one is. Shapes follow the public SDKs' beta request types.

export interface BetaFeature {
  /** how the message names it */
  what: string;
  /**
   * beta values that enable it, newest first (the first is the one suggested); empty for what the public
   * SDKs know without naming a beta (reported as `outside-spec`)
   */
  betas: readonly string[];
}

const MCP = ['mcp-client-2025-11-20', 'mcp-client-2025-04-04'] as const;
const COMPUTER_USE_2025 = ['computer-use-2025-01-24'] as const;
const COMPUTER_USE_2024 = ['computer-use-2024-10-22'] as const;

const ADVISOR = ['advisor-tool-2026-03-01'] as const;
const FALLBACK = ['server-side-fallback-2026-07-01', 'server-side-fallback-2026-06-01'] as const;
const TOOL_CHANGES = ['mid-conversation-tool-changes-2026-07-01'] as const;

/** Top-level request fields. */
export const BETA_FIELDS: Readonly<Record<string, BetaFeature>> = {
  mcp_servers: { what: '`mcp_servers`', betas: MCP },
  // compaction edits came with their own beta; the other edits with context-management
  context_management: { what: '`context_management`', betas: ['context-management-2025-06-27', 'compact-2026-01-12'] },
  output_format: { what: '`output_format` (now `output_config.format`)', betas: ['structured-outputs-2025-11-13'] },
  fallbacks: { what: '`fallbacks`', betas: FALLBACK },
  fallback_credit_token: { what: '`fallback_credit_token`', betas: ['fallback-credit-2026-07-01'] },
};

/** Content block types (in a message's content). */
export const BETA_BLOCK_TYPES: Readonly<Record<string, BetaFeature>> = {
  mcp_tool_use: { what: '`mcp_tool_use` blocks', betas: MCP },
  mcp_tool_result: { what: '`mcp_tool_result` blocks', betas: MCP },
  compaction: { what: '`compaction` blocks', betas: ['compact-2026-01-12'] },
  advisor_tool_result: { what: '`advisor_tool_result` blocks', betas: ADVISOR },
  tool_addition: { what: '`tool_addition` blocks', betas: TOOL_CHANGES },
  tool_removal: { what: '`tool_removal` blocks', betas: TOOL_CHANGES },
  fallback: { what: '`fallback` blocks', betas: FALLBACK },
};

/** Tool definition types. */
export const BETA_TOOL_TYPES: Readonly<Record<string, BetaFeature>> = {
  mcp_toolset: { what: '`mcp_toolset` tools', betas: ['mcp-client-2025-11-20'] },
  computer_20241022: { what: 'the `computer_20241022` tool', betas: COMPUTER_USE_2024 },
  bash_20241022: { what: 'the `bash_20241022` tool', betas: COMPUTER_USE_2024 },
  text_editor_20241022: { what: 'the `text_editor_20241022` tool', betas: COMPUTER_USE_2024 },
  computer_20250124: { what: 'the `computer_20250124` tool', betas: COMPUTER_USE_2025 },
  computer_20251124: { what: 'the `computer_20251124` tool', betas: ['computer-use-2025-11-24'] },
  advisor_20260301: { what: 'the `advisor_20260301` tool', betas: ADVISOR },
  // newer tool versions the public SDKs know, with no beta named for them
  web_search_20260318: { what: 'the `web_search_20260318` tool', betas: [] },
  web_fetch_20260318: { what: 'the `web_fetch_20260318` tool', betas: [] },
  code_execution_20260521: { what: 'the `code_execution_20260521` tool', betas: [] },
  computer_toolset_20260801: { what: 'the `computer_toolset_20260801` tool', betas: [] },
  browser_toolset_20260801: { what: 'the `browser_toolset_20260801` tool', betas: [] },
};

/** An image or document `source` of type `file` (an uploaded file by id). */
export const FILE_SOURCE: BetaFeature = {
  what: 'A `file` source (an uploaded file by id)',
  betas: ['files-api-2025-04-14'],
};

/** `role: "system"` inside `messages` (the spec knows only user and assistant turns). */
export const SYSTEM_ROLE: BetaFeature = {
  what: 'A `system` turn inside `messages`',
  betas: ['mid-conversation-system-2026-04-07'],
};

/** The server tool name `advisor` on a server_tool_use block. */
export const ADVISOR_CALL: BetaFeature = { what: 'A server_tool_use of `advisor`', betas: ADVISOR };

/** Fields inside other objects, by their parent's name. */
export const BETA_NESTED: Readonly<Record<string, Readonly<Record<string, BetaFeature>>>> = {
  output_config: { task_budget: { what: '`output_config.task_budget`', betas: ['task-budgets-2026-03-13'] } },
};

/** `container` as an object (with `skills`) rather than the id the spec describes. */
export const CONTAINER_OBJECT: BetaFeature = {
  what: '`container` as an object (skills)',
  betas: ['skills-2025-10-02'],
};

/** The `speed` value `fast` (doc1 §2.1 says so itself). */
export const FAST_MODE: BetaFeature = { what: '`speed: fast` (fast mode)', betas: ['fast-mode-2026-02-01'] };

export function enabled(feature: BetaFeature, configured: readonly string[]): boolean {
  return feature.betas.some(b => configured.includes(b));
}

export function betaMessage(feature: BetaFeature): string {
  // names in quotes: a diagnostic's message is plain text (its hover shows backticks as they are)
  const what = feature.what.replace(/`([^`]*)`/g, '"$1"');
  if (!feature.betas.length) {
    return (
      `${what} is not in the spec; the public SDKs know it, so the service may accept it. Promptwright ` +
      'does not check its contents.'
    );
  }
  const [first, ...others] = feature.betas;
  const alt = others.length ? ` (or ${others.map(b => `"${b}"`).join(', ')})` : '';
  return (
    `${what} needs the beta "${first}"${alt}; add it to promptwright.betas (PROMPTWRIGHT_BETAS in the CLI) ` +
    'if your code sends it. The spec does not describe this feature, so Promptwright does not check its contents.'
  );
}
