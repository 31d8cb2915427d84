// The request-file checker as a bundle of its own (dist/validator.js): it holds zod, yaml and
// jsonc-parser, most of the extension's bytes, so it is loaded when a request file is first checked, not
// when the extension activates (VS Code activates Promptwright for every JSON file).
export { appendReply } from './core/run/append';
export { fixEdits } from './core/request/fixes';
export { validateText } from './core/request/validate';
