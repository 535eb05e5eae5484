import { describe, expect, it } from 'vitest';
import { goTemplateProblem, renderGoTemplate } from '../../../src/augments/workflow/go-template.js';

// The branches as PromptKit's voice-refund-demo writes them in its tools' mock_template.
const LOOKUP = `{{- if eq .order_id "ORD-1" -}}
{"order_id":"ORD-1","status":"delivered"}
{{- else if eq .order_id "ORD-2" -}}
{"order_id":"ORD-2","status":"{{.status}}"}
{{- else -}}
{"error":"not_found"}
{{- end -}}
`;

describe('Go text/template as PromptKit tool templates use it', () => {
  it('picks the branch eq names and trims around {{- and -}}', () => {
    expect(renderGoTemplate(LOOKUP, { order_id: 'ORD-1' })).toBe('{"order_id":"ORD-1","status":"delivered"}');
    expect(renderGoTemplate(LOOKUP, { order_id: 'ORD-2', status: 'lost' })).toBe('{"order_id":"ORD-2","status":"lost"}');
    expect(renderGoTemplate(LOOKUP, { order_id: 'x' })).toBe('{"error":"not_found"}');
  });

  it('renders a missing key empty, nested fields, not, ne and nested ifs', () => {
    expect(renderGoTemplate('[{{.missing}}] {{.a.b}}', { a: { b: 2 } })).toBe('[] 2');
    expect(renderGoTemplate('{{if not .x}}none{{else}}{{if ne .x "y"}}other{{end}}{{end}}', { x: 'z' })).toBe('other');
    expect(renderGoTemplate('{{if not .x}}none{{end}}', {})).toBe('none');
  });

  it('names an action it does not render instead of rendering it wrong', () => {
    expect(goTemplateProblem('{{range .items}}x{{end}}')).toMatch(/\{\{range \.items\}\} is a template action auggy does not render/);
    expect(goTemplateProblem('{{if .x}}open')).toMatch(/never closed with \{\{end\}\}/);
    expect(goTemplateProblem(LOOKUP)).toBeUndefined();
  });
});
