/**
 * The starter workflow Parley ships (`starter-workflow.json`, downloadable from
 * GET /api/v1/n8n/starter-workflow and importable into n8n as is — through the editor's "Import
 * from File" or the public API's POST /api/v1/workflows, which takes exactly its four keys):
 *
 *   Webhook "Run from Parley" (POST /webhook/parley-starter, answers through a Respond node)
 *   → "Answer Parley": `{ execution_id: <n8n's execution id> }`, so the run records it
 *   → "Post a step message": POST body.callback.messages_url, Bearer body.callback.token,
 *     { step_name, message_type: 'success', content, metadata }
 *   → "Report success": PATCH body.callback.status_url { status: 'success', execution_id }.
 *
 * `starterWorkflowVariant` renames it, moves its webhook path and, with `failWith`, ends it in a
 * Stop and Error node instead of reporting success, so the execution ends in n8n's `error` with
 * that message (the tests' failing variant).
 */
import starter from './starter-workflow.json' with { type: 'json' };

export interface N8nWorkflowJson {
  name: string;
  nodes: { id: string; name: string; type: string; typeVersion: number; position: number[]; parameters: Record<string, unknown>; webhookId?: string }[];
  connections: Record<string, { main: { node: string; type: string; index: number }[][] }>;
  settings: Record<string, unknown>;
}

export const STARTER_WORKFLOW_PATH = 'parley-starter';
export const STARTER_WORKFLOW_FILE = 'parley-starter-workflow.json';

/** A fresh copy of the shipped starter workflow. */
export function starterWorkflow(): N8nWorkflowJson {
  return structuredClone(starter);
}

export function starterWorkflowVariant(options: { name: string; path: string; failWith?: string }): N8nWorkflowJson {
  const workflow = starterWorkflow();
  workflow.name = options.name;
  const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook')!;
  trigger.parameters = { ...trigger.parameters, path: options.path };
  trigger.webhookId = `${options.path}-webhook`;
  if (options.failWith !== undefined) {
    const report = workflow.nodes.findIndex((node) => node.name === 'Report success');
    workflow.nodes[report] = {
      id: '6f1c2a40-0005-4b5e-9a51-5a7e1e000005',
      name: 'Fail on purpose',
      type: 'n8n-nodes-base.stopAndError',
      typeVersion: 1,
      position: [720, 0],
      parameters: { errorType: 'errorMessage', errorMessage: options.failWith },
    };
    workflow.connections['Post a step message'] = { main: [[{ node: 'Fail on purpose', type: 'main', index: 0 }]] };
  }
  return workflow;
}
