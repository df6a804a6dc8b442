import { useMutation } from '@tanstack/react-query';
import { apiResponse } from '@/lib/api-client';
import { fileNameFromDisposition, saveBlob } from '@/lib/download';

export const STARTER_WORKFLOW_FALLBACK_NAME = 'parley-starter-workflow.json';

/** Saves the starter workflow (n8n JSON) under the name the server gives it; answers that name. */
export async function downloadStarterWorkflow() {
  const response = await apiResponse('/api/v1/n8n/starter-workflow');
  const name = fileNameFromDisposition(response.headers.get('content-disposition'), STARTER_WORKFLOW_FALLBACK_NAME);
  saveBlob(await response.blob(), name);
  return name;
}

export function useDownloadStarterWorkflow() {
  return useMutation({ mutationFn: downloadStarterWorkflow, retry: false });
}
