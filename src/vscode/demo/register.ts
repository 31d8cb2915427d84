// The offline demo at activation: its commands, and the demo from the start under `npm start` without a service.
import type { Activation } from '../platform/activation';
import type { DemoBackend, openSample } from './demo';

export function registerDemo(a: Activation<{ demo: DemoBackend; openSample: typeof openSample }>): void {
  const { lazy, features } = a;
  a.context.subscriptions.push(
    lazy('promptwright.tryDemo', f => f.demo.start()),
    lazy('promptwright.stopDemo', f => f.demo.stop()),
    lazy('promptwright.openSample', f => f.openSample()),
  );
  // `npm start` without a service of its own: the offline demo from the start, as the walkthrough offers it
  if (process.env.PROMPTWRIGHT_DEMO === '1' && !a.config.baseUrl)
    void features().then(f => f.demo.start({ quiet: true }));
}
