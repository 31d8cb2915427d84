// What both editors keep of a workspace's files, decided once: how long a file waits after the last keystroke
// before it is checked.
import type { Settings } from '../settings';

/**
 * The pause after typing before a file is checked: `validation.debounceMs`, and a millisecond more per 20,000
 * characters (at most a second more), so typing in a big file never queues work. A pause of 0 is none at all.
 */
export function checkDelay(settings: Pick<Settings, 'validationDebounceMs'>, textLength: number): number {
  const pause = settings.validationDebounceMs;
  return pause && pause + Math.min(1000, Math.floor(textLength / 20000));
}
