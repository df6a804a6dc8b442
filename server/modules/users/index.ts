/** The users module: accounts, roles and who is told about what. */
export { UsersService, toUserSummary } from './users.service';
export { toCurrentUser, type AdminAccount, type Recipient, type ReportRecipient, type UserWithRole } from './users.repository';
export type { ProfileChanges } from './user-profile.repository';
