// The model as co-author at activation: Generate Test Cases…, Improve Prompt… and their proposals' commands.
import { uriOf, type Activation } from '../platform/activation';
import type { Coauthor } from './coauthor';

export function registerCoauthor(a: Activation<{ coauthor: Coauthor }>): void {
  const { lazy } = a;
  a.context.subscriptions.push(
    // from the editor's title (its file) or the palette (the active file)
    lazy('promptwright.generateCases', (f, arg) => f.coauthor.generateCases(uriOf(arg))),
    // the walkthrough's link improves the sample request
    lazy('promptwright.improvePrompt', (f, arg) => f.coauthor.improvePrompt(arg === 'sample' ? arg : uriOf(arg))),
    lazy('promptwright.acceptProposal', f => f.coauthor.proposals.accept()),
    lazy('promptwright.declineProposal', f => f.coauthor.proposals.decline()),
    lazy('promptwright.compareImprovedPrompt', f => f.coauthor.compareImproved()),
  );
}
