// What the fake's `GET /v1/models` lists: the demo's list (the built-in table's current models), then two
// models the built-in table does not know, listed under dated ids whose undated aliases resolve to them:
//   model-quill-1  no thinking, no effort, no images or PDFs, a 400k window and 32,000 output tokens
//   model-lyra-2   adaptive thinking only, effort low to high, images but no PDFs, 2M window, 256,000 output
// The saved catalog test/fixtures/models/catalog.json is this list as `promptwright models --format json`
// prints it (a unit test keeps the two equal).
import { demoModels } from '../../src/core/demo/models';
import type { ServiceModel } from '../../src/core/models/types';

const yes = (supported: boolean) => ({ supported });

const QUILL: ServiceModel = {
  type: 'model',
  id: 'model-quill-1-20261101',
  display_name: 'Quill 1',
  created_at: '2026-11-01T00:00:00Z',
  max_input_tokens: 400_000,
  max_tokens: 32_000,
  capabilities: {
    thinking: { supported: false, types: { adaptive: yes(false), enabled: yes(false) } },
    effort: {
      supported: false,
      low: yes(false),
      medium: yes(false),
      high: yes(false),
      xhigh: yes(false),
      max: yes(false),
    },
    image_input: yes(false),
    pdf_input: yes(false),
    citations: yes(true),
    code_execution: yes(false),
    structured_outputs: yes(true),
    batch: yes(true),
    context_management: yes(false),
  },
};

const LYRA: ServiceModel = {
  type: 'model',
  id: 'model-lyra-2-20261015',
  display_name: 'Lyra 2',
  created_at: '2026-10-15T00:00:00Z',
  max_input_tokens: 2_000_000,
  max_tokens: 256_000,
  capabilities: {
    thinking: { supported: true, types: { adaptive: yes(true), enabled: yes(false) } },
    effort: { supported: true, low: yes(true), medium: yes(true), high: yes(true), xhigh: yes(false), max: yes(false) },
    image_input: yes(true),
    pdf_input: yes(false),
    citations: yes(true),
    code_execution: yes(true),
    structured_outputs: yes(true),
    batch: yes(true),
    context_management: yes(true),
  },
};

/** The fake's catalog, newest first. */
export function fakeModels(): ServiceModel[] {
  return [QUILL, LYRA, ...demoModels()];
}
