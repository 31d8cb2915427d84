// The service's model records (doc3 §9.5: `GET /v1/models` and `GET /v1/models/{model_id}` return
// `max_input_tokens`, `max_tokens` and a `capabilities` object). The spec shows no more than that; the rest
// follows the public Messages API: `{type: "model", id, display_name, created_at, …}`, capabilities of
// `{supported: boolean}` objects and groups of them, listed newest first in cursor pages.

/** One capability: whether the model has it. */
interface Capability {
  supported: boolean;
}

interface ThinkingCapability extends Capability {
  types?: { adaptive?: Capability; enabled?: Capability };
}

interface EffortCapability extends Capability {
  low?: Capability;
  medium?: Capability;
  high?: Capability;
  xhigh?: Capability;
  max?: Capability;
}

interface ModelCapabilities {
  thinking?: ThinkingCapability;
  effort?: EffortCapability;
  image_input?: Capability;
  pdf_input?: Capability;
  citations?: Capability;
  code_execution?: Capability;
  structured_outputs?: Capability;
  batch?: Capability;
  context_management?: Capability;
  /** capabilities added after this was written are kept and shown, never relied on */
  [other: string]: unknown;
}

/** A model as the service describes it. Fields beyond `id` may be missing or null on older services. */
export interface ServiceModel {
  type: 'model';
  id: string;
  display_name?: string;
  /** RFC 3339 */
  created_at?: string;
  max_input_tokens?: number | null;
  max_tokens?: number | null;
  capabilities?: ModelCapabilities | null;
  [other: string]: unknown;
}
