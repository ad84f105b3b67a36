//! Users: a profile with its run credits, the domain allowance, the registered domains.

use async_trait::async_trait;
use chrono::Utc;

use super::{Account, MemoryStore};
use crate::domain::{DomainName, Email, Plan, UserId};
use crate::store::{
    CreateUserError, CredentialStore, LoginCredentials, NewUser, RegisteredDomains, StoreError,
    User, UserStore,
};

impl MemoryStore {
    /// A new `pro` user with `credits` runs and `domains` of domain allowance (an e-mail
    /// address of its own, no usable password): the usual start of a test.
    pub fn add_user(&self, credits: i64, domains: i64) -> UserId {
        let id = UserId::new();
        let email = Email::parse(&format!("user-{id}@example.com")).expect("a valid address");
        let user = User {
            id,
            email: email.clone(),
            plan: Plan::Pro,
            credits_balance: credits,
            domains_balance: domains,
            created_at: Utc::now(),
        };
        let mut state = self.state();
        state.emails.insert(email, id);
        state.accounts.insert(
            id,
            Account {
                user,
                password_hash: String::new(),
                domains: Default::default(),
            },
        );
        id
    }
}

#[async_trait]
impl UserStore for MemoryStore {
    /// Refused when the e-mail address is taken; a taken id is a store error, as the
    /// adapter's transaction fails on the profile's condition then.
    async fn create_user(&self, user: NewUser) -> Result<User, CreateUserError> {
        self.faults.check("create_user")?;
        let mut state = self.state();
        if state.emails.contains_key(&user.email) {
            return Err(CreateUserError::EmailTaken);
        }
        if state.accounts.contains_key(&user.id) {
            return Err(StoreError::new("a user with this id exists").into());
        }
        let created = User {
            id: user.id,
            email: user.email.clone(),
            plan: user.plan,
            credits_balance: user.credits_balance,
            domains_balance: user.domains_balance,
            created_at: Utc::now(),
        };
        state.emails.insert(user.email, user.id);
        state.accounts.insert(
            user.id,
            Account {
                user: created.clone(),
                password_hash: user.password_hash,
                domains: Default::default(),
            },
        );
        Ok(created)
    }

    async fn user(&self, id: UserId) -> Result<Option<User>, StoreError> {
        self.faults.check("user")?;
        Ok(self.state().accounts.get(&id).map(|a| a.user.clone()))
    }

    async fn user_by_email(&self, email: &Email) -> Result<Option<User>, StoreError> {
        self.faults.check("user_by_email")?;
        let state = self.state();
        Ok(state
            .emails
            .get(email)
            .and_then(|id| state.accounts.get(id))
            .map(|a| a.user.clone()))
    }

    /// `None` (nothing written) for an unknown user, as the adapter's conditional writes.
    async fn set_balance(
        &self,
        id: UserId,
        credits: Option<i64>,
        domains: Option<i64>,
    ) -> Result<Option<User>, StoreError> {
        self.faults.check("set_balance")?;
        let mut state = self.state();
        let Some(account) = state.accounts.get_mut(&id) else {
            return Ok(None);
        };
        if let Some(credits) = credits {
            account.user.credits_balance = credits;
        }
        if let Some(domains) = domains {
            account.user.domains_balance = domains;
        }
        Ok(Some(account.user.clone()))
    }

    async fn set_plan(&self, id: UserId, plan: Plan) -> Result<Option<User>, StoreError> {
        self.faults.check("set_plan")?;
        let mut state = self.state();
        Ok(state.accounts.get_mut(&id).map(|account| {
            account.user.plan = plan;
            account.user.clone()
        }))
    }
}

#[async_trait]
impl RegisteredDomains for MemoryStore {
    async fn registered_domains(&self, id: UserId) -> Result<Vec<DomainName>, StoreError> {
        self.faults.check("registered_domains")?;
        Ok(self
            .state()
            .accounts
            .get(&id)
            .map(|a| a.domains.keys().cloned().collect())
            .unwrap_or_default())
    }
}

#[async_trait]
impl CredentialStore for MemoryStore {
    async fn login_credentials(
        &self,
        email: &Email,
    ) -> Result<Option<LoginCredentials>, StoreError> {
        self.faults.check("login_credentials")?;
        let state = self.state();
        Ok(state.emails.get(email).and_then(|id| {
            state.accounts.get(id).map(|a| LoginCredentials {
                user_id: *id,
                password_hash: a.password_hash.clone(),
            })
        }))
    }
}
