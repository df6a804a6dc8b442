/** Changes to one template; each answers the template as it now is (clone: the copy). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { templateView, type CreateTemplateInput, type UpdateTemplateInput } from '@common/api/workflows';
import { apiRequest, apiResponse, apiSend } from '@/lib/api-client';
import { saveBlob } from '@/lib/download';
import { n8nWorkflowFileName } from '../lib/template-form';
import { templateKeys, templatePath } from './keys';

export function createTemplate(values: CreateTemplateInput) {
  return apiRequest('/api/v1/templates', templateView, { method: 'POST', body: values });
}

export function updateTemplate({ id, ...changes }: UpdateTemplateInput & { id: string }) {
  return apiRequest(templatePath(id), templateView, { method: 'PATCH', body: changes });
}

export function deleteTemplate(id: string) {
  return apiSend(templatePath(id), { method: 'DELETE' });
}

export function toggleTemplateStatus(id: string) {
  return apiRequest(`${templatePath(id)}/toggle-status`, templateView, { method: 'POST' });
}

/** A draft copy named '{name} (Copy)' with no clients. */
export function cloneTemplate(id: string) {
  return apiRequest(`${templatePath(id)}/clone`, templateView, { method: 'POST' });
}

/** Also creates the client's automation from the template (name, workflow URL, triggers). */
export function assignTemplateClient({ id, clientId }: { id: string; clientId: string }) {
  return apiRequest(`${templatePath(id)}/clients`, templateView, { method: 'POST', body: { clientId } });
}

/** The automation the assignment created stays. */
export function removeTemplateClient({ id, clientId }: { id: string; clientId: string }) {
  return apiRequest(`${templatePath(id)}/clients/${encodeURIComponent(clientId)}`, templateView, { method: 'DELETE' });
}

/** Saves the template's n8n workflow JSON as a file; answers the file name. */
export async function downloadTemplateN8nWorkflow({ id, name }: { id: string; name: string }) {
  const response = await apiResponse(`${templatePath(id)}/n8n-workflow`);
  // The server names every such file n8n-workflow.json; the template's name tells several apart.
  const fileName = n8nWorkflowFileName(name);
  saveBlob(await response.blob(), fileName);
  return fileName;
}

function useTemplateMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}

export const useCreateTemplate = () => useTemplateMutation(createTemplate);
export const useUpdateTemplate = () => useTemplateMutation(updateTemplate);
export const useDeleteTemplate = () => useTemplateMutation(deleteTemplate);
export const useToggleTemplateStatus = () => useTemplateMutation(toggleTemplateStatus);
export const useCloneTemplate = () => useTemplateMutation(cloneTemplate);
export const useAssignTemplateClient = () => useTemplateMutation(assignTemplateClient);
export const useRemoveTemplateClient = () => useTemplateMutation(removeTemplateClient);

export function useDownloadTemplateN8nWorkflow() {
  return useMutation({ mutationFn: downloadTemplateN8nWorkflow, retry: false });
}
