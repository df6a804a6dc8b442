/** The users module: accounts, roles and who is told about what. */
export { UsersService, toUserSummary } from './users.service';
export { toCurrentUser, type Recipient, type UserWithRole } from './users.repository';
export type { ProfileChanges } from './user-profile.repository';
