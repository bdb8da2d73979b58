/** Step 1: the organization, picked from the organizations stored for this node (searchable). */
import { useMemo, useState } from 'react';
import { useController } from 'react-hook-form';
import type { OrganizationView } from '../../../../shared/model/inventory';
import { useInventoryOrganizations } from '../../../api/inventory';
import { SearchableList } from '../../../components/SearchableList';
import { Loading } from '../../../components/QueryState';
import { InventoryFreshness } from '../../../components/Freshness';
import type { StepProps } from './types';

export function OrganizationStep({ form, profile, signedIn }: StepProps & { signedIn: boolean }) {
  const orgs = useInventoryOrganizations(profile.id);
  const { field, fieldState } = useController({ control: form.control, name: 'orgName' });
  const [query, setQuery] = useState('');
  const all = orgs.data?.items;
  const items = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = all ?? [];
    return q ? list.filter((o) => o.name.toLowerCase().includes(q) || (o.parent ?? '').toLowerCase().includes(q) || (o.effectivePlan ?? '').toLowerCase().includes(q)) : list;
  }, [all, query]);

  if (orgs.isPending) {
    return (
      <Loading>Loading the stored organizations…</Loading>
    );
  }
  return (
    <div className="wizard-step">
      {all?.length === 0 ? (
        <div className="callout callout-info">
          <span>
            {orgs.data?.fetchedAt
              ? `${profile.name} has no organizations. A device belongs to one: create it on the node, then Refresh.`
              : signedIn
                ? `No organizations are stored for ${profile.name} yet; fetching them from the node.`
                : `No organizations are stored for ${profile.name} yet. Sign in to fetch them from the node.`}
          </span>
          <InventoryFreshness profile={profile} fetchedAt={orgs.data?.fetchedAt} what="organizations" signedIn={signedIn} />
        </div>
      ) : null}
      <SearchableList<OrganizationView>
        label="Organization"
        items={items}
        query={query}
        onQuery={setQuery}
        itemKey={(o) => o.name}
        value={field.value}
        onPick={(o) => {
          field.onChange(o.name);
          form.clearErrors('orgName');
        }}
        renderItem={(o) => (
          <span className="org-option">
            <span className="org-option-name">{o.name}</span>
            <span className="muted small">{o.parent ? `under ${o.parent}` : 'top level'}</span>
            {o.effectivePlan ? <span className="chip">{o.inheritedFrom ? `${o.effectivePlan} (inherited)` : o.effectivePlan}</span> : null}
          </span>
        )}
        placeholder="Search organizations"
        error={fieldState.error?.message}
        hint={field.value ? `Chosen: ${field.value}` : `${all?.length ?? 0} organizations stored for ${profile.name}.`}
        testId="org-picker"
        autoFocus
      />
    </div>
  );
}
