// Shapes of what the service returns (doc1 §2.7, §2.9; doc2 §2.1, §2.7) and of the stream events
// (the public Messages streaming format of the SDKs).

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation?: { ephemeral_1h_input_tokens?: number; ephemeral_5m_input_tokens?: number } | null;
  inference_geo?: string | null;
  server_tool_use?: { web_fetch_requests?: number; web_search_requests?: number } | null;
  service_tier?: 'standard' | 'priority' | 'batch' | (string & {}) | null;
}

export type ContentBlock = { type: string; [k: string]: unknown };

export interface Message {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ContentBlock[];
  stop_reason: string | null;
  stop_sequence: string | null;
  stop_details?: { type: 'refusal'; category: string | null; explanation: string | null } | null;
  container?: { id: string; expires_at: string } | null;
  usage: Usage;
}

export type StreamEvent =
  | { type: 'message_start'; message: Message }
  | { type: 'content_block_start'; index: number; content_block: ContentBlock }
  | { type: 'content_block_delta'; index: number; delta: Delta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: {
        stop_reason?: string | null;
        stop_sequence?: string | null;
        stop_details?: Message['stop_details'];
        container?: Message['container'];
      };
      usage?: Usage;
    }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: { type: string; message: string } };

export type Delta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'citations_delta'; citation: Record<string, unknown> };

export interface TokenCount {
  input_tokens: number;
}

export interface SessionResource {
  id?: string;
  type: 'github_repository' | 'file' | 'memory_store' | (string & {});
  created_at?: string;
  updated_at?: string;
  [k: string]: unknown;
}

interface Limiter {
  type: string;
  value: number;
  org_limit?: number | null;
}
export interface RateLimitEntry {
  type: 'rate_limit' | 'workspace_rate_limit';
  group_type: 'model_group' | 'batch' | 'token_count' | 'files' | 'skills' | 'web_search' | (string & {});
  models: string[] | null;
  limits: Limiter[];
}

/** The rate-limit headers of doc3 §8, as read from a response. */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  reset?: string;
  retryAfter?: number;
  organizationId?: string;
  /**
   * The other `vendor-ratelimit-<name>-{limit,remaining,reset}` families the response carried (the public API
   * sends tokens, input-tokens and output-tokens ones); the spec shows only `requests`, read above.
   */
  others?: RateWindow[];
}

/** One family of rate-limit headers. */
export interface RateWindow {
  name: string;
  limit?: number;
  remaining?: number;
  reset?: string;
}
