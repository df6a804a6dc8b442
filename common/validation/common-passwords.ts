/**
 * Passwords that appear at the top of every public breach list (lower-cased). A password equal to
 * one of these, ignoring case, loses the "not a common password" point of the strength score.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '123456', '123456789', '12345678', 'password', 'qwerty', '12345', '123123', '111111', '1234567',
  '1234567890', '000000', 'abc123', 'password1', 'iloveyou', '1q2w3e4r', 'qwerty123', 'admin',
  'welcome', 'monkey', 'dragon', 'letmein', 'football', 'baseball', 'sunshine', 'princess',
  'master', 'shadow', 'superman', 'trustno1', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'password123',
  'password!', 'password1!', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '654321', '666666', '888888',
  '987654321', 'michael', 'jennifer', 'hunter2', 'charlie', 'aa123456', 'login', 'starwars',
  'whatever', 'freedom', 'qazwsx', 'ninja', 'mustang', 'access', 'batman', 'solo', 'hello',
  'hello123', 'welcome1', 'welcome123', 'admin123', 'administrator', 'root', 'changeme',
  'secret', 'test123', 'guest', 'default', 'letmein1', 'qwerty1', 'q1w2e3r4', '1qaz2wsx',
  'zaq12wsx', 'lovely', 'flower', 'passpass', 'computer', 'internet', 'samsung', 'google',
  'summer', 'winter', 'spring', 'autumn', 'summer2024', 'summer2025', 'winter2024', 'winter2025',
  'p@ssw0rd1', 'p@ssw0rd!', 'p@ssw0rd123', 'passw0rd!', 'passw0rd1', 'password@123',
  'password#1', 'password123!', 'qwerty123!', 'qwerty@123', 'admin@123', 'welcome@123',
  'abcd1234', 'abc12345', 'abcdef', 'abcdefg', 'abcdefgh', '11111111', '00000000', '12341234',
]);
