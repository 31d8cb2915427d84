// The Getting Started walkthrough as package.json declares it: each step's picture exists and is small (it
// ships in the .vsix; one picture for every theme), and the events that tick the steps. What the
// steps look like and how they tick in the real editor: test/ui/walkthrough*.test.mjs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';

interface Step {
  id: string;
  description: string;
  media: { image: string; altText: string };
  completionEvents: string[];
}

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  contributes: { walkthroughs: { steps: Step[] }[] };
};
const steps = pkg.contributes.walkthroughs[0]!.steps;
const step = (id: string) => steps.find(s => s.id === id)!;

/** A picture's share of the .vsix budget (320 KB for everything). */
const MAX_PICTURE_BYTES = 8 * 1024;

describe('the Getting Started walkthrough (package.json)', () => {
  it('every step has a picture, a small JPEG named after the step', () => {
    for (const s of steps) {
      const file = s.media.image;
      assert.equal(file, `media/walkthrough/${s.id}.jpg`);
      const bytes = fs.readFileSync(file);
      assert.equal(bytes.readUInt16BE(0), 0xffd8, `${file} is a JPEG`);
      assert.ok(bytes.length <= MAX_PICTURE_BYTES, `${file}: ${bytes.length} bytes`);
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
