// How a failure is said by the front ends that read their service and keys from environment variables (the CLI
// in a terminal, the language server in its log): the variable to set, or the service's status, error.type,
// message and request-id.
import { ApiError, ConfigError, describeError, hintFor } from './api/errors';

const VARIABLE: Record<string, string> = {
  'set-api-key': 'no API key: set the environment variable PROMPTWRIGHT_API_KEY.',
  'set-admin-key': 'no Admin key: set the environment variable PROMPTWRIGHT_ADMIN_KEY (sk-vendor-admin…).',
  'set-compliance-key':
    'no Compliance Access Key: set the environment variable PROMPTWRIGHT_COMPLIANCE_KEY (sk-vendor-api01…).',
  'set-base-url':
    'no service address: set the environment variable PROMPTWRIGHT_BASE_URL to the address of the service, ' +
    'without /v1 (e.g. https://api.example.com).',
};

/**
 * A failure as the CLI says it in a terminal (and the language server in its log): the variable to set, or the
 * service's answer (status, error.type, message, request-id) and what to do about it when there is something to say.
 */
export function describeForCli(e: unknown): string {
  if (e instanceof ConfigError && VARIABLE[e.action]) return VARIABLE[e.action]!;
  if (e instanceof ApiError) {
    // the 401/403 hints name the editor's commands; in a terminal the variable is what matters, said above
    const hint = e.status === 401 || e.status === 403 ? '' : hintFor(e);
    const id = e.requestId ? ` (request-id ${e.requestId})` : '';
    return `${e.status} ${e.type}: ${e.message}${id}${hint ? ` — ${hint}` : ''}`;
  }
  return describeError(e);
}
