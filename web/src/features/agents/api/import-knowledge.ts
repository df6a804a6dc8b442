import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { knowledgeImportResult, type knowledgeImportInput } from '@common/api/agents';
import { apiRequest } from '@/lib/api-client';
import { invalidateKnowledge } from './invalidate';
import { clientPath } from './keys';

export type ImportKnowledgeValues = z.input<typeof knowledgeImportInput>;

/** Replaces (or adds to) the FAQ with a CSV or JSON file's entries; a bad row refuses the whole file. */
export function importKnowledge({ clientId, values }: { clientId: string; values: ImportKnowledgeValues }) {
  return apiRequest(`${clientPath(clientId)}/knowledge/import`, knowledgeImportResult, { method: 'POST', body: values });
}

export function useImportKnowledge(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: ImportKnowledgeValues) => importKnowledge({ clientId, values }),
    retry: false,
    onSettled: () => invalidateKnowledge(queryClient, clientId),
  });
}
