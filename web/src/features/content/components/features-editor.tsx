import { INTEGRATION_IDS } from '@common/api/content';
import { usePublicContent } from '../api/get-public-content';
import { INTEGRATION_CHOICES, PRODUCT_STATUS, type IntegrationId } from '../lib/section-forms';
import { SelectField } from './fields';
import { SectionEditor } from './section-editor';

export const INTEGRATION_LABELS: Record<IntegrationId, string> = {
  whatsapp: 'WhatsApp Business',
  instagram: 'Instagram',
  messenger: 'Facebook Messenger',
  website: 'Website chat',
  custom: 'Custom platform',
  n8n: 'n8n',
  zapier: 'Zapier',
};

const OPTIONS = INTEGRATION_CHOICES.map((choice) => ({ value: choice, label: choice === PRODUCT_STATUS ? 'Product status' : choice }));

/** The Features page's integration statuses: the product's own (Live when supported end to end), or one forced here. */
export function FeaturesEditor() {
  const shown = usePublicContent();
  const publicOf = (id: IntegrationId) => shown.data?.integrations.find((i) => i.id === id);
  return (
    <SectionEditor section="features" description="The status each integration shows on the Features page. Product status is what Parley supports today; choose another to force it.">
      {(form) => (
        <div className="grid min-w-0 gap-4 sm:grid-cols-2">
          {INTEGRATION_IDS.map((id) => {
            const current = publicOf(id);
            return (
              <SelectField
                key={id}
                form={form}
                idPrefix="features"
                name={`integrations.${id}`}
                label={current?.name ?? INTEGRATION_LABELS[id]}
                options={OPTIONS}
                description={current ? `Shown now: ${current.status}` : undefined}
              />
            );
          })}
        </div>
      )}
    </SectionEditor>
  );
}
