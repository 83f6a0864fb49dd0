import { Value } from 'typebox/value'
import type { ApplicationSettings } from '../../../shared/api/application-settings'
import { Visibility } from '../../../shared/api/common'
import { DEFAULT_SETTINGS, type SettingsSnapshot } from '../../platform/settings'

type VisibilityValue = ApplicationSettings['default_project_visibility']

/** A stored default visibility; the default's when the stored text names none (writes are checked, see routes). */
function visibilityOf(stored: string, fallback: VisibilityValue): VisibilityValue {
  return Value.Check(Visibility, stored) ? stored : fallback
}

/** GitLab's ApplicationSetting entity: the settings Burrow honours, under GitLab's names. */
export function applicationSettingsEntity(settings: Readonly<SettingsSnapshot>): ApplicationSettings {
  return {
    id: 1,
    ...settings,
    default_project_visibility: visibilityOf(
      settings.default_project_visibility,
      DEFAULT_SETTINGS.default_project_visibility,
    ),
    default_group_visibility: visibilityOf(
      settings.default_group_visibility,
      DEFAULT_SETTINGS.default_group_visibility,
    ),
    outbound_local_requests_whitelist: [...settings.outbound_local_requests_whitelist],
  }
}
