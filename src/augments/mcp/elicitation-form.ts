import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { schemaForm, type SchemaForm } from '../questions/index.js';

export type ElicitationForm = SchemaForm;

/**
 * A form-mode `elicitation/create` as a questionnaire: one question per property, in the order
 * the server wrote them. Choices show the server's titles and answer with its values.
 */
export function elicitationForm(params: ElicitRequestFormParams, server: string): ElicitationForm {
  const message = params.message.trim() || `The MCP server ${server} asks for some information.`;
  return schemaForm(params.requestedSchema, `${server} asks: ${message}`);
}
