import { useMutation } from '@tanstack/react-query';
import { apiResponse } from '@/lib/api-client';
import { saveBlob } from '@/lib/download';
import { n8nWorkflowFileName } from '../lib/template-form';
import { templatePath } from './keys';

/** Saves the template's n8n workflow JSON as a file; answers the file name. */
export async function downloadTemplateN8nWorkflow({ id, name }: { id: string; name: string }) {
  const response = await apiResponse(`${templatePath(id)}/n8n-workflow`);
  // The server names every such file n8n-workflow.json; the template's name tells several apart.
  const fileName = n8nWorkflowFileName(name);
  saveBlob(await response.blob(), fileName);
  return fileName;
}

export function useDownloadTemplateN8nWorkflow() {
  return useMutation({ mutationFn: downloadTemplateN8nWorkflow, retry: false });
}
