// Small DOM helpers of the Activity Feed webview, on top of the shared ones (../dom).
export { $, button, el, icon } from '../common/dom';

/** "1 record", "2,000 records" (core/text's count, through the protocol module the webview may import) */
export { count as plural } from '../../protocol/activity';

/** The class that gives a type its dot of colour, by the kind of content it is about (theme chart colours). */
export function kindClass(type: string): string {
  if (type.startsWith('org_')) return 'kind-org';
  if (type.includes('project')) return 'kind-project';
  if (type.includes('file')) return 'kind-file';
  if (type.includes('chat')) return 'kind-chat';
  return 'kind-other';
}
