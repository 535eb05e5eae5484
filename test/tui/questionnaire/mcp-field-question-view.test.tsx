import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import type { PresentedQuestion } from '../../../src/kernel/person.js';
import { emptyEditor } from '../../../src/hosts/tui/editor-state.js';
import { FieldQuestionView } from '../../../src/hosts/tui/questionnaire/field-question-view.js';
import { frameWith } from '../chat-harness.js';

afterEach(() => cleanup());

const none = { editor: emptyEditor, highlighted: -1 };

function draw(question: PresentedQuestion, text: string) {
  const { lastFrame } = render(<FieldQuestionView question={question} input={none} />);
  return frameWith(lastFrame, text);
}

describe('FieldQuestionView for questions an MCP server or tool asks', () => {
  it('an approval is headed by the server and tool, with the call above and yes / no / always', async () => {
    const frame = await draw(
      {
        questionnaireId: 'approve_1',
        field: 'approve',
        question: 'Run mcp_ops_deploy?',
        type: 'choice',
        options: ['yes', 'no', 'always for this session'],
        required: true,
        index: 1,
        total: 1,
        intro: 'ops wants to run deploy (confirmTools in .mcp.json lists it) with:\n{\n  "service": "api"\n}',
        purpose: { kind: 'approval', server: 'ops', tool: 'deploy', toolName: 'mcp_ops_deploy', arguments: { service: 'api' } },
      },
      'approve a tool call',
    );
    const lines = frame.split('\n');
    expect(lines.slice(0, 3)).toEqual(['ops wants to run deploy (confirmTools in .mcp.json lists it) with:', '{', '  "service": "api"']);
    expect(lines).toContain('? approve a tool call · ops · deploy');
    expect(lines).toContain('  Run mcp_ops_deploy?');
    expect(lines.filter((line) => /\d\. /.test(line)).map((line) => line.trim())).toEqual(['1. yes', '2. no', '3. always for this session']);
  });

  it("a server form's question says which server asks", async () => {
    const frame = await draw(
      {
        questionnaireId: 'q',
        field: 'email',
        question: 'Email (an email address)',
        type: 'text',
        required: true,
        index: 4,
        total: 13,
        purpose: { kind: 'elicitation', server: 'everything' },
      },
      'asked by',
    );
    expect(frame.split('\n')[0]).toBe('? question 4 of 13 · asked by the MCP server everything');
  });
});
