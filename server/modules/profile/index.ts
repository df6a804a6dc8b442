/** The profile module: a signed-in person's own account — details, password, two-factor, sessions. */
export { ProfileService } from './profile.service';
