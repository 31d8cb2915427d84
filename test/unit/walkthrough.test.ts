// The Getting Started walkthrough as package.json declares it: each step's pictures, dark and light, exist and are
// small (they ship in the .vsix), and the events that tick the steps. What the steps look like and how they
// tick in the real editor: test/ui/walkthrough*.test.mjs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';

interface Step {
  id: string;
  description: string;
  media: { image: { dark: string; light: string; hc: string; hcLight: string }; altText: string };
  completionEvents: string[];
}

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  contributes: { walkthroughs: { steps: Step[] }[] };
};
const steps = pkg.contributes.walkthroughs[0]!.steps;
const step = (id: string) => steps.find(s => s.id === id)!;

/** A picture's share of the .vsix budget (two pictures a step, dark and light). */
const MAX_PICTURE_BYTES = 6 * 1024;

describe('the Getting Started walkthrough (package.json)', () => {
  it('every step has a dark and a light picture, small WebPs named after the step, high contrast too', () => {
    for (const s of steps) {
      const { dark, light, hc, hcLight } = s.media.image;
      assert.deepEqual([dark, light], [`media/walkthrough/${s.id}-dark.webp`, `media/walkthrough/${s.id}-light.webp`]);
      assert.deepEqual(
        [hc, hcLight],
        [dark, light],
        `${s.id}: the high contrast themes take the dark and the light one`,
      );
      for (const file of [dark, light]) {
        const bytes = fs.readFileSync(file);
        assert.equal(bytes.toString('latin1', 8, 12), 'WEBP', `${file} is a WebP`);
        assert.ok(bytes.length <= MAX_PICTURE_BYTES, `${file}: ${bytes.length} bytes`);
      }
      assert.ok(s.media.altText.length > 20, `${s.id}: says what the picture shows`);
    }
  });
  it('"Open a request file" ticks when a request file becomes active, however it was opened', () => {
    assert.ok(step('open').completionEvents.includes('onContext:promptwright.activeFile == request'));
  });
  it('"Watch the token count" says what a click does, and ticks on a count or the breakdown', () => {
    assert.match(step('count').description, /Click it for the Token Breakdown/);
    assert.deepEqual(step('count').completionEvents, [
      'onContext:promptwright.counted',
      'onCommand:promptwright.tokenBreakdown',
    ]);
  });
});
