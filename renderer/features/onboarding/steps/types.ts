import type { UseFormReturn } from 'react-hook-form';
import type { DeviceRecord } from '../../../../shared/model/inventory';
import type { ProfileView } from '../../../../shared/model/profile';
import type { WizardValues } from '../../../components/wizard-model';

export type WizardForm = UseFormReturn<WizardValues, unknown, DeviceRecord>;

export interface StepProps {
  form: WizardForm;
  profile: ProfileView;
}
